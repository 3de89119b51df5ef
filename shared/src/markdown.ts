/**
 * Page-derived text (a font family, a title, a URL) inside Markdown we write: each character that
 * Markdown, its autolinks or inline HTML could read as syntax is backslash-escaped and line breaks
 * become spaces, so the text shows as itself and never becomes a link, an image, emphasis, a table
 * cell or raw HTML for whoever reads the file. The one escape for every Markdown file we write.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ').replace(/[\\`*_{}[\]()#+.!|<>~&:]/g, (ch) => `\\${ch}`);
}
