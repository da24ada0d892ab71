package port

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/model/predict"
)

// TransferOptions say how Transfer trains.
type TransferOptions struct {
	// Grid is the time model's hyper-parameter grid (predict.Train).
	Grid predict.Grid
	// Seed draws the validation graphs and the held-out graphs.
	Seed uint64
	// HoldOut is the share of the graphs measured on both platforms that
	// no model trains on, on either platform; the models are scored on
	// them only, beside models trained on the target platform's other
	// graphs (the Native score). 0 trains on every graph of the source
	// platform and scores on every graph of the target, with no Native
	// score: the graphs are then the same on both sides, only the GPU
	// differs.
	HoldOut float64
}

// DefaultTransferOptions are "predict evaluate"'s grid, seed 1, and no
// held-out graphs.
var DefaultTransferOptions = TransferOptions{Grid: predict.DefaultGrid, Seed: 1}

// TransferScore is how one model does on the target platform's test
// inputs: its Mix-and-Match rows against the target's per-level optimum
// (seed 004 §4.3 Total and the rest of aggregate.Row), and the time
// model's per-level time error there.
type TransferScore struct {
	// TimeModel runs, at every level, the implementation the time model
	// predicts fastest; Tree the one seed 004's classification tree picks.
	TimeModel aggregate.Row `json:"time_model"`
	Tree      aggregate.Row `json:"tree"`
	// MedianError, Within20 and Spearman are predict.Score's: the time
	// model's predicted against the target's measured level times.
	MedianError float64 `json:"median_error"`
	Within20    float64 `json:"within_20"`
	Spearman    float64 `json:"spearman"`
}

// TransferRow is one direction: trained on From, scored on To.
type TransferRow struct {
	From string `json:"from"`
	To   string `json:"to"`
	// TrainGraphs counts the graphs the models trained on (validation
	// graphs included); TestGraphs are those they are scored on.
	TrainGraphs int      `json:"train_graphs"`
	TestGraphs  []string `json:"test_graphs"`
	// Transfer is the models trained on From; Native, with HoldOut > 0,
	// the same trained on To's measurements of the training graphs.
	Transfer TransferScore  `json:"transfer"`
	Native   *TransferScore `json:"native,omitempty"`
	// BestNonSwitching is the oracle single implementation per input on
	// To; BestFixed runs everywhere the implementation with the least
	// summed time on From's training graphs (BestFixedImpl).
	BestNonSwitching aggregate.Row `json:"best_non_switching"`
	BestFixed        aggregate.Row `json:"best_fixed"`
	BestFixedImpl    string        `json:"best_fixed_impl"`
	Warnings         []string      `json:"warnings"`
}

// TransferResult is every ordered pair of platforms.
type TransferResult struct {
	Platforms []string      `json:"platforms"`
	HoldOut   float64       `json:"hold_out"`
	Seed      uint64        `json:"seed"`
	Rows      []TransferRow `json:"rows"`
	// Trees is the most boosting rounds of the time model
	// (TransferOptions.Grid.Base.Trees).
	Trees int `json:"trees"`
}

// Fits returns the model fits Transfer makes for n platforms: per ordered
// pair, a time model per grid setting plus the final fit, twice with
// HoldOut (the native model).
func (o TransferOptions) Fits(n int) int {
	per := len(o.Grid.Targets)*len(o.Grid.MaxLeaves)*len(o.Grid.MinLeaf) + 1
	if o.HoldOut > 0 {
		per *= 2
	}
	return n * (n - 1) * per
}

// Transfer trains the time model (model/predict) and seed 004's
// classification tree (model/tree, §7.2 features, time-weighted) on one
// platform's measurements and scores them on another's, for every ordered
// pair of platforms (seed 004 ch. 8: models trained on one GPU, tested on
// others). datasets holds each platform's predict.Dataset, built with that
// platform's machine file (the time model's physical base time and
// features come from the machine file of the GPU it predicts, as they
// would for a GPU never measured). Training is predict.Train's: the
// hyper-parameters and the tree's depth are chosen on validation graphs
// (predict.ValidationShare of the training graphs), never on the test
// graphs. Scores are predict.ScoreLevels' on the target: Mix-and-Match
// against the target's per-level optimum (Total = summed time of the
// picks / summed per-level optimum), beside its best non-switching oracle
// and the best fixed implementation of the source's training graphs.
// progress, when not nil, is called after every fit (of o.Fits in all).
func Transfer(datasets map[string]*predict.Dataset, platforms []string, o TransferOptions, progress func(done, total int)) (*TransferResult, error) {
	if len(platforms) < 2 {
		return nil, fmt.Errorf("%w: %v", ErrPlatforms, platforms)
	}
	if !(o.HoldOut >= 0 && o.HoldOut < 1) {
		return nil, fmt.Errorf("port: hold-out share %g: want 0 or more and below 1", o.HoldOut)
	}
	for _, p := range platforms {
		if datasets[p] == nil {
			return nil, fmt.Errorf("port: no dataset for platform %q", p)
		}
	}
	res := &TransferResult{Platforms: platforms, HoldOut: o.HoldOut, Seed: o.Seed, Trees: o.Grid.Base.Trees}
	total, done := o.Fits(len(platforms)), 0
	step := func(d, t int) {
		if progress != nil {
			progress(done+d, total)
		}
	}
	perFit := o.Fits(2) / 2
	if o.HoldOut > 0 {
		perFit /= 2
	}
	for _, from := range platforms {
		for _, to := range platforms {
			if from == to {
				continue
			}
			a, b := datasets[from], datasets[to]
			test := b.Graphs
			trainFrom := a.Graphs
			var trainTo []string
			if o.HoldOut > 0 {
				common := intersect(a.Graphs, b.Graphs)
				if len(common) < 3 {
					return nil, fmt.Errorf("port: %s and %s share %d graphs: too few to hold some out", from, to, len(common))
				}
				g := shuffled(common, o.Seed)
				n := min(max(int(math.Round(o.HoldOut*float64(len(g)))), 1), len(g)-2)
				test = g[:n]
				sort.Strings(test)
				trainFrom, trainTo = without(a.Graphs, test), without(b.Graphs, test)
			}
			row := TransferRow{From: from, To: to, TrainGraphs: len(trainFrom), TestGraphs: test}
			levels := b.LevelsOf(test)
			if len(levels) == 0 {
				return nil, fmt.Errorf("port: %s: no level rows of the test graphs", to)
			}
			s := carve(from+" to "+to, trainFrom, test, o.Seed)
			sc, fixed, err := score(a, s, b, levels, o.Grid, step)
			if err != nil {
				return nil, fmt.Errorf("port: trained on %s, scored on %s: %w", from, to, err)
			}
			done += perFit
			row.Transfer, row.BestFixedImpl = sc.transfer, fixed
			row.BestNonSwitching, row.BestFixed = sc.score.BestNonSwitching, sc.score.BestFixed
			row.Warnings = sc.warnings
			if o.HoldOut > 0 {
				ns := carve(to+" to "+to, trainTo, test, o.Seed)
				nsc, _, err := score(b, ns, b, levels, o.Grid, step)
				if err != nil {
					return nil, fmt.Errorf("port: trained and scored on %s: %w", to, err)
				}
				done += perFit
				row.Native = &nsc.transfer
			}
			res.Rows = append(res.Rows, row)
		}
	}
	if progress != nil {
		progress(total, total)
	}
	return res, nil
}

type scored struct {
	transfer TransferScore
	score    predict.Score
	warnings []string
}

// score trains the time model and the tree on s in a, and scores both on
// the level rows levels of b.
func score(a *predict.Dataset, s predict.Split, b *predict.Dataset, levels []int, g predict.Grid, progress func(done, total int)) (scored, string, error) {
	m, err := predict.Train(a, s, g, progress)
	if err != nil {
		return scored{}, "", err
	}
	fixed := predict.BestFixed(a, a.LevelsOf(append(slices.Clone(s.Train), s.Validation...)))
	sc, err := predict.ScoreLevels(b, levels, m.PredictDataset(b, levels), fixed)
	if err != nil {
		return scored{}, "", err
	}
	tree, _, err := predict.ClassificationTreeOn(a, s, b, levels)
	if err != nil {
		return scored{}, "", err
	}
	out := scored{score: sc, warnings: sc.Warnings, transfer: TransferScore{TimeModel: sc.MixAndMatch, Tree: tree,
		MedianError: sc.MedianError, Within20: sc.Within20, Spearman: sc.Spearman}}
	return out, fixed, nil
}

// carve makes the split: predict.ValidationShare of the (shuffled)
// training graphs validate, as predict.MakeSplits does.
func carve(name string, train, test []string, seed uint64) predict.Split {
	g := shuffled(train, seed)
	nVal := min(max(int(math.Round(predict.ValidationShare*float64(len(g)))), 1), len(g)-1)
	s := predict.Split{Name: name, Seed: seed, Train: g[nVal:], Validation: g[:nVal], Test: test}
	sort.Strings(s.Train)
	sort.Strings(s.Validation)
	return s
}

func shuffled(g []string, seed uint64) []string {
	out := slices.Clone(g)
	r := rand.New(rand.NewPCG(seed, 0x706f7274)) // "port"
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func intersect(a, b []string) []string {
	in := map[string]bool{}
	for _, g := range b {
		in[g] = true
	}
	var out []string
	for _, g := range a {
		if in[g] {
			out = append(out, g)
		}
	}
	return out
}

func without(a, drop []string) []string {
	out := []string{}
	for _, g := range a {
		if !slices.Contains(drop, g) {
			out = append(out, g)
		}
	}
	return out
}

// Notes are the rows' warnings, each after its direction in ShortNames:
// "H100 to H200: ...".
func (r *TransferResult) Notes() []string {
	short := ShortNames(r.Platforms)
	name := func(p string) string { return short[slices.Index(r.Platforms, p)] }
	var notes []string
	for _, row := range r.Rows {
		for _, w := range row.Warnings {
			notes = append(notes, fmt.Sprintf("%s to %s: %s", name(row.From), name(row.To), w))
		}
	}
	return notes
}
