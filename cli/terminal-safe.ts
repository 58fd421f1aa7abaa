// Page text printed to a terminal is data: escape sequences in it (clear screen, a forged title, cursor moves that
// hide lines) must not reach the terminal. Text output only; --json prints the executor's result untouched.

/** ESC sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \, never past a line), two-character escapes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]?|\u001b\][^\u0007\u001b\n]*(?:\u0007|\u001b\\)?|\u001b[ -/]*[0-~]?/g;
/** C0 controls but tab and newline, DEL, and the C1 controls (which some terminals read as ESC sequences). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** The text with escape sequences and control characters removed; newlines and tabs stay. */
export function terminalSafe(text: string): string {
	return text.replace(ESCAPES, "").replace(CONTROLS, "");
}
