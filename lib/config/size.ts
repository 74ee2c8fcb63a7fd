/** The size limit on a configuration file, shared by discovery (before reading) and the parser. */
import { DroverError } from "../errors.ts";

/** A configuration file larger than this is refused before it is parsed. */
export const CONFIG_MAX_BYTES = 1024 * 1024;

export function tooLarge(file: string): DroverError {
  return new DroverError(
    "CONFIG_INVALID",
    `${file}:1: (file): larger than ${CONFIG_MAX_BYTES / 1024 / 1024} MiB; a configuration ` +
      "this size is not one drover reads",
    { details: { file } },
  );
}
