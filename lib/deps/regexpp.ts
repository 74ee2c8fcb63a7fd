// One home for the regular-expression parser (profile pattern checks and the POSIX-ERE export).
export { RegExpParser, visitRegExpAST } from "@eslint-community/regexpp";
export type { AST } from "@eslint-community/regexpp";
