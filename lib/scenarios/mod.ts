/**
 * The scenarios' public entry, for `drover verify` and the lab: every CLI's table by name
 * (all_tables.ts) and what a table is (types.ts).
 */
export { tableFor, TABLES, VERIFIABLE } from "./all_tables.ts";
export * from "./types.ts";
