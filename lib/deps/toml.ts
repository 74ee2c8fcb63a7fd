// One home for the TOML parser, so a later switch to @std/toml is a one-file change.
export { parse as parseToml, TomlError } from "smol-toml";
