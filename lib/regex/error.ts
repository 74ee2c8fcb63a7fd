/** The one error a profile pattern can fail with; its message is meant for a person. */
export class PatternError extends Error {
  override get name(): string {
    return "PatternError";
  }
}
