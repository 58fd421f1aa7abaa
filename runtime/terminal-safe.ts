// Text printed for a person is data from pages, backends, config and project files: escape sequences in it (clear
// screen, a forged window title, a clipboard write, hidden text) and bidi overrides that reorder what is shown must
// not reach the terminal. Applied once at each output boundary: the CLI's streams, pi's notifications and reports.

/** ESC sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \, never past a line), two-character escapes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]?|\u001b\][^\u0007\u001b\n]*(?:\u0007|\u001b\\)?|\u001b[ -/]*[0-~]?/g;
/**
 * C0 controls but tab and newline, DEL, the C1 controls (which some terminals read as ESC sequences), and the bidi
 * controls that reorder the text around them: ALM, LRM/RLM, embeddings and overrides (U+202A–U+202E), isolates
 * (U+2066–U+2069).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The text with escape sequences and control characters removed; newlines and tabs stay. */
export function terminalSafe(text: string): string {
	return text.replace(ESCAPES, "").replace(CONTROLS, "");
}

/**
 * JSON text with the same characters written as `\uXXXX` escapes (JSON.stringify leaves DEL, C1 and bidi controls
 * raw): they occur only inside strings, JSON's own syntax being ASCII, where an escape is the same value.
 */
export function jsonTerminalSafe(json: string): string {
	return json.replace(CONTROLS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
