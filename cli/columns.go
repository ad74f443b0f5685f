package cli

// Columns for a terminal: text/tabwriter's alignment (cells ended by a
// tab, padded by two spaces, in column blocks of consecutive lines), with
// a cell's width measured as a terminal shows it: per grapheme cluster,
// wide (CJK, emoji, a flag, a ZWJ family) as two columns, a combining
// mark as none. tabwriter counts runes, which misaligns all of those.

import (
	"bytes"
	"io"
	"strings"
)

// columns is what the commands write their tables into, in place of
// newColumns(w): Write takes tab-separated
// cells and lines, Flush aligns and writes them.
type columns struct {
	w   io.Writer
	buf bytes.Buffer
}

func newColumns(w io.Writer) *columns { return &columns{w: w} }

func (c *columns) Write(p []byte) (int, error) { return c.buf.Write(p) }

// Flush writes the lines so far, aligned.
func (c *columns) Flush() error {
	text := c.buf.String()
	c.buf.Reset()
	if text == "" {
		return nil
	}
	var lines [][]string
	rest, last := text, ""
	if i := strings.LastIndexByte(text, '\n'); i < len(text)-1 {
		rest, last = text[:i+1], text[i+1:] // an unended line is flushed as it is, as tabwriter does
	}
	for _, l := range strings.SplitAfter(rest, "\n") {
		if l != "" {
			lines = append(lines, strings.Split(strings.TrimSuffix(l, "\n"), "\t"))
		}
	}
	if last != "" {
		cells := strings.Split(last, "\t")
		if cells[len(cells)-1] == "" {
			// tabwriter's Flush ends an unended line's last cell only when
			// it holds text: the cell before it is then the last.
			cells = cells[:len(cells)-1]
		}
		lines = append(lines, cells)
	}
	var out bytes.Buffer
	formatColumns(&out, lines, nil, last != "")
	_, err := c.w.Write(out.Bytes())
	return err
}

// formatColumns is tabwriter's format: the lines that have a cell in the
// next column form a block whose width is its widest cell and the
// padding; each block is formatted again for the column after it.
// unended: the last line has no newline.
func formatColumns(out *bytes.Buffer, lines [][]string, widths []int, unended bool) {
	col := len(widths)
	start := 0
	for i := 0; i < len(lines); i++ {
		if col >= len(lines[i])-1 {
			continue
		}
		writeColumnLines(out, lines[start:i], widths, unended && i == len(lines))
		start = i
		width := 0
		for ; i < len(lines) && col < len(lines[i])-1; i++ {
			width = max(width, textWidth(lines[i][col])+2)
		}
		formatColumns(out, lines[start:i], append(widths, width), unended && i == len(lines))
		start = i
		i--
	}
	writeColumnLines(out, lines[start:], widths, unended)
}

func writeColumnLines(out *bytes.Buffer, lines [][]string, widths []int, unended bool) {
	for n, line := range lines {
		for j, cell := range line {
			out.WriteString(cell)
			if j < len(widths) && j < len(line)-1 {
				out.WriteString(strings.Repeat(" ", max(widths[j]-textWidth(cell), 0)))
			}
		}
		if !unended || n < len(lines)-1 {
			out.WriteByte('\n')
		}
	}
}
