/**
 * JSON with every control character escaped: JSON.stringify leaves DEL, C1 controls and the
 * U+2028/U+2029 separators raw, and a pane capture can contain any of them. The one encoder of
 * every JSON line drover prints or appends (command envelopes, drive events).
 */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}
