package la

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/kernels/ncu"
)

// ReadProfile reads an ncu "--csv --page raw" file (gzip or plain) of a
// graphperf-la pass into launches carrying the metrics of Metrics() that
// the file has. It reads its own CSV rather than kernels/ncu.Reader
// because some of these metrics come in units that reader's kinds do not
// know (byte, warp, wavefront); values are scaled to base units: K, M, G
// prefixes removed, times in ns, percentages as given. A metric the header
// lacks is left out of every launch (Place then counts it as zero and the
// caller may warn); a bad number is an error naming file, line and metric.
func ReadProfile(r io.Reader, file string) ([]ncu.Launch, []string, error) {
	br := bufio.NewReader(r)
	var src io.Reader = br
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: gzip: %w", file, err)
		}
		src = zr
	}
	cr := csv.NewReader(src)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: reading the header: %w", file, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	idCol, okID := col["ID"]
	nameCol, okName := col["Kernel Name"]
	if !okID || !okName {
		return nil, nil, fmt.Errorf("%s:1: no ID or Kernel Name column: want ncu --csv --page raw", file)
	}
	var missing []string
	type mcol struct {
		name   string
		index  int
		factor float64
	}
	var cols []mcol
	for _, m := range Metrics() {
		i, ok := col[m.Name]
		if !ok {
			missing = append(missing, m.Name)
			continue
		}
		cols = append(cols, mcol{name: m.Name, index: i, factor: 1})
	}
	var out []ncu.Launch
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		if idCol < len(rec) && rec[idCol] == "" { // the units row
			for j := range cols {
				u := ""
				if cols[j].index < len(rec) {
					u = rec[cols[j].index]
				}
				f, ok := baseFactor(u)
				if !ok {
					return nil, nil, fmt.Errorf("%s:%d: %s: unknown unit %q", file, line, cols[j].name, u)
				}
				cols[j].factor = f
			}
			continue
		}
		l := ncu.Launch{Line: line, Metrics: map[string]float64{}}
		if idCol < len(rec) {
			l.ID = rec[idCol]
		}
		if nameCol < len(rec) {
			l.Name = rec[nameCol]
		}
		for _, c := range cols {
			if c.index >= len(rec) {
				return nil, nil, fmt.Errorf("%s:%d: %s: short row", file, line, c.name)
			}
			s := strings.ReplaceAll(strings.TrimSpace(rec[c.index]), ",", "")
			if s == "" || s == "n/a" {
				continue
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("%s:%d: %s: want a number, got %q", file, line, c.name, rec[c.index])
			}
			l.Metrics[c.name] = v * c.factor
		}
		out = append(out, l)
	}
	var warnings []string
	if len(missing) > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: no column for %s (counts taken as 0, efficiencies undefined)", file, strings.Join(missing, ", ")))
	}
	return out, warnings, nil
}

// baseFactor returns the factor to base units of an ncu unit: times to ns,
// a K/M/G prefix on a count unit removed, percent and bare numbers 1.
func baseFactor(u string) (float64, bool) {
	switch u {
	case "", "%":
		return 1, true
	case "ns", "nsecond":
		return 1, true
	case "us", "usecond":
		return 1e3, true
	case "ms", "msecond":
		return 1e6, true
	case "s", "second":
		return 1e9, true
	}
	for _, base := range []string{"sector", "inst", "cycle", "byte", "warp", "wavefront", "request", "thread"} {
		prefix, ok := strings.CutSuffix(u, base)
		if !ok {
			continue
		}
		switch prefix {
		case "":
			return 1, true
		case "K":
			return 1e3, true
		case "M":
			return 1e6, true
		case "G":
			return 1e9, true
		}
	}
	return 0, false
}

// collapseMissing merges ReadProfile's "FILE: no column for METRICS"
// warnings that name the same metrics into one line counting the files
// (a metric set lacks the same columns in every profile it made); other
// warnings keep their order.
func collapseMissing(warnings []string) []string {
	const sep = ": no column for "
	var out []string
	files := map[string][]string{}
	var order []string
	for _, w := range warnings {
		i := strings.Index(w, sep)
		if i < 0 {
			out = append(out, w)
			continue
		}
		rest := w[i+len(sep):]
		if _, ok := files[rest]; !ok {
			order = append(order, rest)
		}
		files[rest] = append(files[rest], path.Base(w[:i]))
	}
	for _, rest := range order {
		fs := files[rest]
		if len(fs) == 1 {
			out = append(out, fs[0]+sep+rest)
			continue
		}
		out = append(out, fmt.Sprintf("%d profiles (%s ... %s)%s%s", len(fs), fs[0], fs[len(fs)-1], sep, rest))
	}
	return out
}
