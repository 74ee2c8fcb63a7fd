// One home for the JSON Schema validator (used by the tests that check every `drover.*.v1` output
// against docs/schemas/, which are written in draft-07, ajv's default dialect).
import AjvModule from "ajv";

// ajv ships CommonJS: under Deno's interop the class is the module's `default` export's `default`.
export const Ajv = AjvModule.default;
