// Package html renders a run notebook as one self-contained HTML page.
package html
