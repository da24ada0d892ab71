// Package bundle builds a report bundle: it runs a notebook's cells through
// a Runner that returns each cell's typed output (tables with declared
// columns, figures, prose), and writes index.html, report.xlsx,
// tables/NAME.csv and .tex, figures/NAME.png, .svg and .pdf and manifest.json.
package bundle
