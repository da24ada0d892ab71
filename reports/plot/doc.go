// Package plot draws the figures of the graphperf report with gonum/plot:
// the service-time curves S(m) of a machine (seed 000 figure 6), the
// distribution of normalised runtimes per implementation (seed 004
// figure 4.2) and per-level BFS times against the per-level optimum (seed 004
// figures 4.3 and 4.4).
//
// Every figure is a function of plain Go values returning a *plot.Plot; Save
// writes one as PNG (300 dpi), SVG and PDF (Render); ForPage sizes one for a
// page, its legend below it (Legended).
package plot
