package main

import (
	"fmt"

	"github.com/graphperf/graphperf/analysis/aggregate"
)

const benchRepeatHelp = `Compare two measurements of the same inputs (two results directories
of "bench sweep" over the same graphs, seeds and roots; the second may
hold a subset): how well a choice made on the first holds on the second.
Per graph and over all inputs, each against the second measurement's
per-level optimum (1 = optimal):

  best_non_switching  the second's fastest single implementation per input
                      (hindsight of the second measurement itself)
  first_best          the first's fastest single implementation per input,
                      run on the second
  first_levels        the first's fastest implementation at every level
                      (Mix-and-Match with a perfect prediction of the first)

The last two bound what a model trained on measurements like the first
can reach against best non-switching on a new one: where they are far
above best non-switching, it profits from variation between runs that no
prediction can see (docs/ACCURACY.md).`

func benchRepeat(e *env, args []string) error {
	fs := newFlagSet(e, "repeat", "bench repeat [flags] FIRST SECOND", benchRepeatHelp)
	var of outputFlags
	of.register(fs)
	pos, err := parse(fs, args, 2, 2)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	var runs [2][]aggregate.Run
	for i, dir := range pos {
		d, err := loadAggregate(dir)
		if err != nil {
			return err
		}
		runs[i] = d.Runs
	}
	res, err := aggregate.Repeat(runs[0], runs[1])
	if err != nil {
		return fmt.Errorf("%s and %s: %w", pos[0], pos[1], err)
	}
	if of.json {
		return writeJSON(e.stdout, res.JSON())
	}
	if err := tableOf(res.Table()).write(e.stdout, of.csv); err != nil {
		return err
	}
	writeNotes(e, of.csv, res.Warnings)
	return nil
}
