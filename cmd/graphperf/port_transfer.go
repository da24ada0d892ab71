package main

import (
	"fmt"
	"os"

	"github.com/graphperf/graphperf/analysis/port"
	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/predict"
)

const portTransferHelp = `Leave a platform out (seed 004 ch. 8): the time model (model/predict, as
"predict evaluate" trains it) and seed 004's classification tree, trained on
one GPU's validated BFS runs and scored on another's, for every ordered
pair of --platforms. Scores are the target GPU's: Mix-and-Match (at every
level the implementation the model picks, its measured time on the target;
switching cost not included) against the target's per-level optimum (seed
004 §4.3 Total: summed time of the picks / summed per-level optimum),
beside the target's best non-switching oracle and the best fixed
implementation of the source's training graphs; and the time model's
per-level error on the target (median |predicted - measured| / measured,
share within ±20%, mean Spearman rank correlation per level). The time
model's physical base time on the target comes from the target's machine
file, as it would for a GPU never measured.

With --hold-out 0 (the default) the models train on every graph of the
source and are scored on every graph of the target: the graphs are the
same, only the GPU differs. With --hold-out F a share F of the graphs
measured on both is held out of all training and the scores are on those
graphs only, beside "native" models trained on the target's own runs of
the remaining graphs: the price of not measuring the target GPU.

The graph and level properties come from --levels DIR's
graph-properties.json.gz and level-properties.json.gz (default: the
embedded H100 dataset's, which have every graph of the H100 sweep; a
level's frontier must be the one measured), else the graph is rebuilt from the store's record (file graphs from
--graphs). One fit takes 20-30 s on two cores with the default grid.`

func portTransfer(e *env, args []string) error {
	fs := newFlagSet(e, "port transfer", "port transfer [--db STORE] [--platforms A,B] [--hold-out F] [--seed N] [--machine PLATFORM=FILE,...] [--json|--csv]", portTransferHelp)
	var pf portFlags
	pf.register(fs)
	machines := fs.String("machine", "", "machine files by platform, PLATFORM=MACHINE comma-separated (MACHINE: an embedded name or a .yaml file; default: the embedded one the device name names)")
	holdOut := fs.Float64("hold-out", 0, "share of the graphs measured on both platforms held out of all training (0: score on every graph)")
	seed := fs.Uint64("seed", 1, "seed of the validation and held-out graphs and of the boosting")
	trees := fs.Int("trees", predict.DefaultGrid.Base.Trees, "most boosting rounds of the time model (early stopping on the validation graphs chooses fewer)")
	levelsDir := fs.String("levels", "", "results directory whose "+"level-properties.json.gz gives the graphs' level properties (default: the embedded H100 dataset's)")
	graphsDir := fs.String("graphs", os.Getenv(GraphsEnv), "folder holding the file graphs (SNAP) a store names, rebuilt when --levels lacks them; default $"+GraphsEnv)
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *trees < 1 {
		return fmt.Errorf("--trees %d: want 1 or more", *trees)
	}
	m, err := pf.load(e)
	if err != nil {
		return err
	}
	if len(m.Platforms) < 2 {
		return fmt.Errorf("%w: %q (ingest a second GPU's sweep into the store: graphperf bench ingest)", port.ErrPlatforms, m.Platforms)
	}
	mach, err := platformMachines(*machines, m.Platforms)
	if err != nil {
		return err
	}
	dir := *levelsDir
	if dir == "" {
		if dir, err = measured.Dir(); err != nil {
			return err
		}
	}
	db, err := openData(e, pf.db)
	if err != nil {
		return err
	}
	defer db.Close()
	props, err := port.ReadProps(dir)
	if err != nil {
		return fmt.Errorf("--levels: %w", err)
	}
	datasets, err := port.Datasets(db, m.Platforms, mach, port.DatasetOptions{Dataset: pf.dataset, Props: props, Dir: dir,
		Graphs: func(recs []kernels.GraphRecord) port.GraphSource {
			return newGraphBuilder(e, recs, *graphsDir)
		},
		Done: func(p string, ds *predict.Dataset) {
			for _, w := range ds.Warnings {
				fmt.Fprintf(e.stderr, "warning: %s: %s\n", p, w)
			}
		}})
	if err != nil {
		return err
	}
	o := port.DefaultTransferOptions
	o.Grid.Base.Trees, o.Seed, o.HoldOut = *trees, *seed, *holdOut
	bar := progress.New(e.stderr, e.interactive, "transfer", false)
	res, err := port.Transfer(datasets, m.Platforms, o, func(d, t int) { bar.Update(int64(d), int64(t)) })
	bar.Done()
	if err != nil {
		return fmt.Errorf("--hold-out: %w", err)
	}
	if pf.of.json {
		return writeJSON(e.stdout, res)
	}
	return writeTransfer(e, res, pf.of.csv)
}

// writeTransfer prints a transfer's table (a person's, or CSV) and its
// notes.
func writeTransfer(e *env, res *port.TransferResult, asCSV bool) error {
	t := tableOf(res.Table())
	if !asCSV {
		what := "every graph of the target (the same graphs the source trained on)"
		if res.HoldOut > 0 {
			what = fmt.Sprintf("%.0f%% of the graphs measured on both, held out of all training (seed %d)", 100*res.HoldOut, res.Seed)
		}
		fmt.Fprintf(e.stdout, "leave a platform out over {%s}: trained on one, scored on %s; Totals against the target's per-level optimum (1 = optimal)\n\n",
			port.Legend(res.Platforms), what)
	}
	if err := t.write(e.stdout, asCSV); err != nil {
		return err
	}
	writeNotes(e, asCSV, res.Notes())
	return nil
}
