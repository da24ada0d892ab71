package plot

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/model/machine"
)

var (
	// ErrNoData is returned when a figure would have nothing to draw.
	ErrNoData = errors.New("plot: no data")
	// ErrValue is returned for a value a logarithmic axis cannot show
	// (not positive, or not finite).
	ErrValue = errors.New("plot: value not positive and finite")
)

// Save writes p, w wide and h high, to dir/name.png, .svg and .pdf (Render),
// creating dir if needed. Each file is written to a temporary file in dir
// and renamed into place, so that a reader never sees a partial figure.
func Save(p Figure, dir, name string, w, h vg.Length) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("plot: save %s: %w", name, err)
	}
	for _, ext := range Formats {
		path := filepath.Join(dir, name+"."+ext)
		if err := saveAtomic(p, path, ext, w, h); err != nil {
			return fmt.Errorf("plot: save %s: %w", path, err)
		}
	}
	return nil
}

func saveAtomic(p Figure, path, ext string, w, h vg.Length) (err error) {
	wt, err := Render(p, w, h, ext)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err = wt.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ServiceCurves draws the service time S(m) of each class of m's service
// curves against the memory-level parallelism m, both axes logarithmic
// (seed 000 §6.5, figure 6). Points of a latency-form curve, L(m) = m S(m),
// are drawn as S(m) = L(m)/m. It is an error (ErrNoData) when m has no
// service curves, or a curve has no points, and ErrValue when an MLP or a
// time is not positive.
func ServiceCurves(m *machine.Machine) (*plot.Plot, error) {
	if m == nil || len(m.ServiceCurves) == 0 {
		return nil, fmt.Errorf("%w: machine has no service curves", ErrNoData)
	}
	p := plot.New()
	p.Title.Text = strings.ToUpper(m.Name) + ": service time per request vs. MLP"
	p.X.Label.Text = "memory-level parallelism m (requests in flight)"
	p.Y.Label.Text = "service time S(m) (ns)"
	logAxes(p, true, true)
	p.Legend.Top = true
	for i, c := range m.ServiceCurves {
		if len(c.Points) == 0 {
			return nil, fmt.Errorf("%w: %s: class %s has no points", ErrNoData, m.Name, c.Class)
		}
		xys := make(plotter.XYs, len(c.Points))
		for j, pt := range c.Points {
			s := float64(pt.Time)
			if c.Form == machine.LatencyForm {
				s /= pt.MLP
			}
			if !positive(pt.MLP) || !positive(s) {
				return nil, fmt.Errorf("%w: %s: class %s point %d: (%g, %g ns)", ErrValue, m.Name, c.Class, j, pt.MLP, s)
			}
			xys[j] = plotter.XY{X: pt.MLP, Y: s}
		}
		if err := addLinePoints(p, i, c.Class, xys); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// NormalizedOptions choose what NormalizedRuntimes draws. The zero value
// draws the best member of every family.
type NormalizedOptions struct {
	// Impls names the implementations drawn, in this order. Empty means
	// the best member of each family (Table.Families), by normalised total.
	Impls []string
	// Top, when positive, draws only the first Top of them.
	Top int
	// Title is the figure's title; "" gives a default naming the optimum.
	Title string
}

// NormalizedRuntimes draws, per implementation, its ratios r_i = t_i / o_i
// over the inputs of t (seed 004 figure 4.2), where o_i is the table's
// optimum and t_i the implementation's time on input i from runs: the total
// line's median with AgainstTotal, the sum of level medians with
// AgainstLevels (the analysis/aggregate definitions). Each implementation's
// ratios are sorted and drawn against the share of its inputs, so a line
// that stays low and flat is close to optimal everywhere; the y axis is
// logarithmic.
//
// runs should be the runs t was summarised from; runs of inputs not in t
// are ignored. It is an error (ErrNoData) when no drawn implementation has a
// ratio. It takes O(R + N log N) time for R runs and N ratios drawn.
func NormalizedRuntimes(t *aggregate.Table, runs []aggregate.Run, opts NormalizedOptions) (*plot.Plot, error) {
	if t == nil || len(t.Inputs) == 0 {
		return nil, fmt.Errorf("%w: empty table", ErrNoData)
	}
	impls := opts.Impls
	if len(impls) == 0 {
		for _, f := range t.Families() {
			impls = append(impls, f.Name)
		}
	}
	if opts.Top > 0 && len(impls) > opts.Top {
		impls = impls[:opts.Top]
	}
	ratios := Ratios(t, runs)
	p := plot.New()
	p.Title.Text = opts.Title
	if p.Title.Text == "" {
		p.Title.Text = "Time over optimum: " + againstName(t.Against)
	}
	p.X.Label.Text = "share of inputs (sorted by ratio)"
	p.Y.Label.Text = "time / optimal time (×)"
	logAxes(p, false, true)
	p.X.Min, p.X.Max = 0, 1
	p.X.Tick.Marker = shareTicks{}
	p.Legend.Top = true
	p.Legend.Left = true
	drawn := 0
	for i, name := range impls {
		rs := ratios[name]
		if len(rs) == 0 {
			continue
		}
		rs = append([]float64(nil), rs...)
		sort.Float64s(rs)
		xys := make(plotter.XYs, len(rs))
		for j, r := range rs {
			x := 0.5
			if len(rs) > 1 {
				x = float64(j) / float64(len(rs)-1)
			}
			xys[j] = plotter.XY{X: x, Y: r}
		}
		label := fmt.Sprintf("%s (%d)", name, len(rs))
		if err := addLinePoints(p, i, label, xys); err != nil {
			return nil, err
		}
		drawn++
	}
	if drawn == 0 {
		return nil, fmt.Errorf("%w: no ratios for %v", ErrNoData, impls)
	}
	p.Y.Min = math.Min(p.Y.Min, 1)
	return p, nil
}

// Ratios returns, per implementation, its ratios t_i / o_i over the inputs of
// t in the order of t.Inputs (skipping inputs it has no time on), with t_i
// taken from runs as NormalizedRuntimes describes.
func Ratios(t *aggregate.Table, runs []aggregate.Run) map[string][]float64 {
	index := make(map[aggregate.Input]int, len(t.Inputs))
	for i, in := range t.Inputs {
		index[in] = i
	}
	type ratio struct {
		input int
		r     float64
	}
	byImpl := make(map[string][]ratio)
	for _, r := range runs {
		i, ok := index[r.Input]
		if !ok || i >= len(t.Optima) || !(t.Optima[i].Ns > 0) {
			continue
		}
		ns := r.TotalNs
		if t.Against == aggregate.AgainstLevels {
			if r.LevelNs == nil {
				continue
			}
			ns = 0
			for _, l := range r.LevelNs {
				ns += l
			}
		}
		if !positive(ns) {
			continue
		}
		byImpl[r.Impl] = append(byImpl[r.Impl], ratio{i, ns / t.Optima[i].Ns})
	}
	out := make(map[string][]float64, len(byImpl))
	for name, rs := range byImpl {
		sort.SliceStable(rs, func(a, b int) bool { return rs[a].input < rs[b].input })
		vs := make([]float64, len(rs))
		for j, r := range rs {
			vs[j] = r.r
		}
		out[name] = vs
	}
	return out
}

// LevelTimes draws per BFS level the time of each implementation in levels
// (name to per-level times in ns, level 0 first) and the per-level optimum
// (seed 004 figures 4.3 and 4.4), with a logarithmic time axis in µs.
// Implementations are drawn in name order; optimal, which may be nil, is
// drawn as a thick dashed black line. Slices may have different lengths.
// Each implementation has its own Style; the legend goes below the plot
// (WithLegendBelow).
// It is an error (ErrNoData) when there is no time at all, and ErrValue when
// a time is not positive and finite.
func LevelTimes(levels map[string][]float64, optimal []float64, title string) (*plot.Plot, error) {
	names := make([]string, 0, len(levels))
	n := 0
	for name, ts := range levels {
		names = append(names, name)
		n += len(ts)
	}
	sort.Strings(names)
	if n == 0 && len(optimal) == 0 {
		return nil, fmt.Errorf("%w: no level times", ErrNoData)
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "BFS level"
	p.Y.Label.Text = "level time (µs)"
	logAxes(p, false, true)
	p.X.Tick.Marker = integerTicks{}
	p.Legend.Top = true
	for i, name := range names {
		xys, err := levelXYs(name, levels[name])
		if err != nil {
			return nil, err
		}
		if len(xys) == 0 {
			continue
		}
		if err := addLinePoints(p, i, name, xys); err != nil {
			return nil, err
		}
	}
	if len(optimal) > 0 {
		xys, err := levelXYs("optimal", optimal)
		if err != nil {
			return nil, err
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		l.Color = color.Black
		l.Width = vg.Points(2)
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		p.Add(l)
		p.Legend.Add("per-level optimum", l)
	}
	p.X.Min = math.Min(p.X.Min, 0)
	return p, nil
}

func levelXYs(name string, ts []float64) (plotter.XYs, error) {
	xys := make(plotter.XYs, len(ts))
	for l, v := range ts {
		if !positive(v) {
			return nil, fmt.Errorf("%w: %s level %d: %g ns", ErrValue, name, l, v)
		}
		xys[l] = plotter.XY{X: float64(l), Y: v / 1e3} // drawn in µs, as the tables print level times
	}
	return xys, nil
}

func positive(x float64) bool { return x > 0 && !math.IsInf(x, 0) }

func againstName(a aggregate.Against) string {
	if a == aggregate.AgainstLevels {
		return "per-level oracle"
	}
	return "best implementation per input"
}

// addLinePoints adds a line with glyphs in the i-th Style. A line of more
// than 40 points carries its glyphs on 12 of them, evenly spread, so the
// series stays recognisable without a glyph per point (which would blot
// the line and swell the vector files).
func addLinePoints(p *plot.Plot, i int, label string, xys plotter.XYs) error {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return fmt.Errorf("plot: %s: %w", label, err)
	}
	c, dashes, shape := Style(i)
	l.Color = c
	l.Width = vg.Points(1.2)
	l.Dashes = dashes
	marks := xys
	if len(xys) > 40 {
		marks = make(plotter.XYs, 0, 12)
		for k := range 12 {
			marks = append(marks, xys[k*(len(xys)-1)/11])
		}
	}
	s, err := plotter.NewScatter(marks)
	if err != nil {
		return fmt.Errorf("plot: %s: %w", label, err)
	}
	s.Color = c
	s.Shape = shape
	s.Radius = vg.Points(2)
	p.Add(l, s)
	p.Legend.Add(label, l, s)
	return nil
}

// logAxes sets the house font sizes, sized for figures of about 4x3 inches,
// and makes the chosen axes logarithmic, with readable ticks.
func logAxes(p *plot.Plot, x, y bool) {
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.Title.Padding = vg.Points(4)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(9)
		a.Tick.Label.Font.Size = vg.Points(8)
	}
	p.Legend.TextStyle.Font.Size = vg.Points(7.5)
	p.Legend.ThumbnailWidth = vg.Points(20)
	p.Legend.Padding = vg.Points(1)
	p.Legend.XOffs = -vg.Points(4)
	p.Legend.YOffs = -vg.Points(2)
	p.Add(plotter.NewGrid())
	if x {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
	}
	if y {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
}

// logTicks labels 1, 2 and 5 times powers of ten when the range spans at most
// two decades, and powers of ten (with unlabelled minor ticks) otherwise.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max >= min) {
		return nil
	}
	decades := math.Log10(max / min)
	var ts []plot.Tick
	for e := math.Floor(math.Log10(min)) - 1; e <= math.Ceil(math.Log10(max)); e++ {
		base := math.Pow(10, e)
		for k := 1; k < 10; k++ {
			v := float64(k) * base
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			label := ""
			if k == 1 || (decades <= 2 && (k == 2 || k == 5)) {
				label = tickLabel(v)
			}
			ts = append(ts, plot.Tick{Value: v, Label: label})
		}
	}
	if len(ts) < 2 {
		// Less than one labelled step inside the range: label the ends.
		return []plot.Tick{
			{Value: min, Label: tickLabel(min)},
			{Value: max, Label: tickLabel(max)},
		}
	}
	return ts
}

// tickLabel writes v short: plainly from 0.001 to 9999, else as 1e4, 2.5e-5.
func tickLabel(v float64) string {
	if v >= 1e-3 && v < 1e4 {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	e := math.Floor(math.Log10(v))
	mant := v / math.Pow(10, e)
	if math.Abs(mant-math.Round(mant)) < 1e-9 {
		mant = math.Round(mant)
	}
	m := strconv.FormatFloat(mant, 'g', 3, 64)
	return m + "e" + strconv.Itoa(int(e))
}

// shareTicks labels a [0, 1] share axis in percent.
type shareTicks struct{}

func (shareTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for v := 0; v <= 100; v += 25 {
		ts = append(ts, plot.Tick{Value: float64(v) / 100, Label: strconv.Itoa(v) + "%"})
	}
	return ts
}

// integerTicks labels every integer when there are at most 15, else every
// k-th.
type integerTicks struct{}

func (integerTicks) Ticks(min, max float64) []plot.Tick {
	lo, hi := math.Ceil(min), math.Floor(max)
	step := math.Max(1, math.Ceil((hi-lo+1)/15))
	var ts []plot.Tick
	for v := lo; v <= hi; v++ {
		label := ""
		if math.Mod(v-lo, step) == 0 {
			label = strconv.FormatFloat(v, 'f', 0, 64)
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	return ts
}

var (
	_ plot.Ticker = logTicks{}
	_ plot.Ticker = shareTicks{}
	_ plot.Ticker = integerTicks{}
)
