package main

import (
	"fmt"
	"strings"

	"github.com/graphperf/graphperf/model/portability"
)

func modelPortability(e *env, args []string) error {
	fs := newFlagSet(e, "portability", "model portability [flags] FILE.csv",
		`Performance portability (Pennycook, Sewall and Lee; seed 002 §2.1) of each
application over a platform set H: the harmonic mean of its efficiencies,

  PP(a, p, H) = |H| / sum_{i in H} 1/e_i(a, p)   if a runs on every platform of H,
              = 0                                 otherwise.

FILE.csv has a header naming the columns application, platform and efficiency
(any order; other columns are ignored; lines starting with # are comments),
then one row per application and platform. An efficiency is a number: the
application efficiency T(best known on the platform) / T(application), or an
architectural efficiency (achieved / the platform's limit); 0, an empty cell,
"unsupported" or a missing row mean the application does not run there.
H is every platform of the file, in the order they first appear, unless
--platforms names it.`)
	platforms := fs.String("platforms", "", "the platform set H, comma-separated (default: every platform in the file)")
	var of outputFlags
	of.register(fs)
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	file := pos[0]
	records, err := portability.ReadFile(file)
	if err != nil {
		return err
	}
	var h []string
	if *platforms != "" {
		for _, p := range strings.Split(*platforms, ",") {
			h = append(h, strings.TrimSpace(p))
		}
	}
	out, err := portability.NewReport(file, records, h)
	if err != nil {
		return fmt.Errorf("--platforms: %w", err)
	}
	if of.json {
		return writeJSON(e.stdout, out)
	}
	t := tableOf(out.Table())
	if of.csv {
		if err := t.write(e.stdout, true); err != nil {
			return err
		}
		return writeRooflineNotes(e.stderr, "graphperf: model portability: note: ", out.Notes)
	}
	fmt.Fprintf(e.stdout, "%s: performance portability over H = {%s}: the harmonic mean of the efficiencies, 0 if unsupported on any platform of H (Pennycook; seed 002 §2.1)\n\n",
		file, strings.Join(out.Platforms, ", "))
	if err := t.write(e.stdout, false); err != nil {
		return err
	}
	return writeRooflineNotes(e.stdout, "\nnotes:\n", out.Notes)
}
