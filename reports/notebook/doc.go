// Package notebook parses report notebooks (Markdown with fenced graphperf cells) and runs their cells in order.
package notebook
