package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/port"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/portability"
)

func portGroup() group {
	return group{
		name:    "port",
		summary: "the same BFS implementations on several GPUs: performance portability, specializations, speedups, models moved between GPUs",
		commands: []command{
			{"pp", "Pennycook's performance portability of every implementation over the stored GPUs", portPP},
			{"specialize", "seed 002's fair, anti-social and illegal specializations: warp width and aggregation tuned to one GPU", portSpecialize},
			{"speedup", "each implementation's speedup of one GPU over another, against their bandwidth ratio", portSpeedup},
			{"transfer", "the time model and seed 004's tree trained on one GPU's runs, scored on another's", portTransfer},
		},
	}
}

// portFlags choose the measurements of a port verb.
type portFlags struct {
	db, dataset, platforms string
	of                     outputFlags
}

func (f *portFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.db, "db", "", "the SQLite store holding two GPUs' sweeps (graphperf bench ingest; default: the store of the embedded H100 and H200 datasets)")
	fs.StringVar(&f.dataset, "dataset", "", "only this dataset of the store (default: every dataset; inputs are matched by graph name and root)")
	fs.StringVar(&f.platforms, "platforms", "", "the platforms compared, comma-separated: names as \"data list\" prints them, or parts of them such as h100,h200 (default: every platform with BFS runs)")
	f.of.register(fs)
}

// load opens the store and reads the platforms' validated BFS runs.
func (f *portFlags) load(e *env) (*port.Measurements, error) {
	if err := f.of.check(); err != nil {
		return nil, err
	}
	db, err := openData(e, f.db)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var names []string
	if f.platforms != "" {
		for _, p := range strings.Split(f.platforms, ",") {
			names = append(names, strings.TrimSpace(p))
		}
	}
	m, err := port.Load(db, f.dataset, names)
	if err != nil {
		return nil, fmt.Errorf("--platforms: %w", err)
	}
	return m, nil
}

// writeNotes prints the notes after a table (to stderr with --csv, so
// the CSV stays a table); inside a report the cell keeps them as its notes.
func writeNotes(e *env, asCSV bool, notes []string) {
	if len(notes) == 0 {
		return
	}
	if s, ok := e.stdout.(*cellSink); ok {
		s.notes = append(s.notes, notes...)
	}
	w, heading := e.stdout, "\nnotes:\n"
	if asCSV {
		w, heading = e.stderr, ""
	}
	io.WriteString(w, heading)
	for _, n := range notes {
		if asCSV {
			fmt.Fprintf(w, "graphperf: port: note: %s\n", n)
		} else {
			fmt.Fprintf(w, "  %s\n", n)
		}
	}
}

const portPPHelp = `Pennycook's performance portability (seed 002 §2.1) of every BFS
implementation over the platforms of the store (--platforms), with
application efficiency:

  PP(a, H) = |H| / sum_{i in H} 1/e_i(a)   if a runs every input on every i in H, else 0
  e_i(a)   = sum_{p in C} T_i(best_i(p), p) / sum_{p in C} T_i(a, p)

C is the set of inputs (graph, root) measured on every platform; T_i the
median total time of the validated runs on platform i; best_i(p) the
fastest single implementation of input p on platform i (--against total),
or the per-level oracle, the fastest implementation at every level
(--against levels). So e_i is 1 / the Total of seed 004 §4.3 over C: a
time-weighted aggregate, the largest inputs weigh most. An implementation
without a validated run of some input of C on a platform is unsupported
there: PP 0.`

func portPP(e *env, args []string) error {
	fs := newFlagSet(e, "port pp", "port pp [--db STORE] [--platforms A,B] [--against total|levels] [--json|--csv]", portPPHelp)
	var pf portFlags
	pf.register(fs)
	against := fs.String("against", "total", "the best implementation of an input: total (fastest single implementation) or levels (per-level oracle)")
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	a, err := aggregate.ParseAgainst(*against)
	if err != nil {
		return fmt.Errorf("--against: %w", err)
	}
	m, err := pf.load(e)
	if err != nil {
		return err
	}
	res, err := port.PP(m, nil, a)
	if err != nil {
		return err
	}
	if pf.of.json {
		return writeJSON(e.stdout, res)
	}
	t := tableOf(res.Table())
	if !pf.of.csv {
		fmt.Fprintf(e.stdout, "performance portability over H = {%s}: %d inputs measured on every platform; best of an input: %s\n\n",
			port.Legend(res.Platforms), res.Inputs, map[aggregate.Against]string{aggregate.AgainstTotal: "the fastest single implementation", aggregate.AgainstLevels: "the per-level oracle"}[a])
	}
	if err := t.write(e.stdout, pf.of.csv); err != nil {
		return err
	}
	writeNotes(e, pf.of.csv, res.Warnings)
	return nil
}

const portSpecializeHelp = `Seed 002's classes of platform specializations (§3.2, §3.2.3) where the
measurements hold them: for every group of implementations that differ in
one parameter (the virtual warp width 4-32 of vertex-push-warp and
vertex-pull-warp, default 32; the aggregation atomic, bulk, warp-reduce or
block-reduce, default atomic) and every platform t, the specialization "set
the parameter to its optimum on t" (the least summed time over the inputs
the default ran on every platform), compared with the default on every
platform:

  fair         no platform slows down by more than --noise (seed 002 line 319)
  anti-social  some platform slows down by more than --noise (line 321)
  illegal      the tuned implementation fails (no validated run) on a
               platform where the default runs (line 323)

"none": the default is already the optimum on t. The notes say which of seed
002's specializations (zero-copy, work-group size) the data cannot classify.`

func portSpecialize(e *env, args []string) error {
	fs := newFlagSet(e, "port specialize", "port specialize [--db STORE] [--platforms A,B] [--noise 0.05] [--json|--csv]", portSpecializeHelp)
	var pf portFlags
	pf.register(fs)
	noise := fs.Float64("noise", portability.DefaultNoise, "relative time change below which a platform is not affected")
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	m, err := pf.load(e)
	if err != nil {
		return err
	}
	res, err := port.Specialize(m, nil, *noise)
	if err != nil {
		return fmt.Errorf("--noise: %w", err)
	}
	if pf.of.json {
		return writeJSON(e.stdout, res)
	}
	t := tableOf(res.Table())
	if !pf.of.csv {
		var counts []string
		for _, c := range []string{"fair", "anti-social", "illegal", "none"} {
			counts = append(counts, fmt.Sprintf("%d %s", res.Counts[c], c))
		}
		fmt.Fprintf(e.stdout, "specializations over {%s} (seed 002 §3.2.3; change = time tuned / time default - 1, noise %.3g%%): %s\n\n",
			port.Legend(res.Platforms), 100*res.Noise, strings.Join(counts, ", "))
	}
	if err := t.write(e.stdout, pf.of.csv); err != nil {
		return err
	}
	writeNotes(e, pf.of.csv, res.Notes())
	return nil
}

// platformMachines returns the machine file of every platform: the
// --machine entries (PLATFORM=SPEC, PLATFORM a name or part of one, SPEC an
// embedded machine or a YAML file), else port.MachineFor.
func platformMachines(spec string, platforms []string) (map[string]*machine.Machine, error) {
	given := map[string]*machine.Machine{}
	if spec != "" {
		for _, kv := range strings.Split(spec, ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
			if !ok || k == "" || v == "" {
				return nil, fmt.Errorf("--machine %q: want PLATFORM=MACHINE (an embedded name or a .yaml file), comma-separated", kv)
			}
			p, err := port.MatchPlatform(k, platforms)
			if err != nil {
				return nil, fmt.Errorf("--machine %s: %w", kv, err)
			}
			m, err := loadMachine(v)
			if err != nil {
				return nil, fmt.Errorf("--machine %s: %w", kv, err)
			}
			given[p] = m
		}
	}
	out, err := port.Machines(platforms, given)
	if err != nil {
		return nil, fmt.Errorf("--machine: %w", err)
	}
	return out, nil
}
