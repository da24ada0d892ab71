package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/graphperf/graphperf/model/portability"
)

// portabilityEfficiencyJSON is one platform of an application.
type portabilityEfficiencyJSON struct {
	Platform   string   `json:"platform"`
	Efficiency *float64 `json:"efficiency"` // null: unsupported
}

// portabilityApplicationJSON is one application of "model portability --json".
type portabilityApplicationJSON struct {
	Application  string                      `json:"application"`
	PP           float64                     `json:"pp"`
	Efficiencies []portabilityEfficiencyJSON `json:"efficiencies"`
	Unsupported  []string                    `json:"unsupported"`
	Warnings     []string                    `json:"warnings"`
}

// portabilityJSON is what "model portability --json" prints.
type portabilityJSON struct {
	File         string                       `json:"file"`
	Platforms    []string                     `json:"platforms"`
	Applications []portabilityApplicationJSON `json:"applications"`
}

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
	records, err := portabilityRead(file)
	if err != nil {
		return err
	}
	var h []string
	if *platforms != "" {
		for _, p := range strings.Split(*platforms, ",") {
			h = append(h, strings.TrimSpace(p))
		}
	}
	apps, err := portability.ByApplication(records, h)
	if err != nil {
		return fmt.Errorf("--platforms: %w", err)
	}
	out := portabilityJSON{File: file, Platforms: apps[0].Platforms}
	for _, a := range apps {
		j := portabilityApplicationJSON{Application: a.Name, PP: a.PP, Unsupported: a.Unsupported, Warnings: append([]string{}, a.Warnings...)}
		for i, p := range a.Platforms {
			ej := portabilityEfficiencyJSON{Platform: p}
			if e := a.Efficiencies[i]; e > 0 {
				ej.Efficiency = &e
			}
			j.Efficiencies = append(j.Efficiencies, ej)
		}
		out.Applications = append(out.Applications, j)
	}
	if of.json {
		return writeJSON(e.stdout, out)
	}
	t := &table{header: append(append([]string{"application"}, out.Platforms...), "PP", "unsupported")}
	var notes []string
	inFile := map[string]bool{}
	for _, p := range portability.Platforms(records) {
		inFile[p] = true
	}
	for _, p := range out.Platforms {
		if !inFile[p] {
			notes = append(notes, fmt.Sprintf("%s: no row in %s: every application is unsupported there", p, file))
		}
	}
	for _, a := range out.Applications {
		row := []string{a.Application}
		for _, ej := range a.Efficiencies {
			row = append(row, rooflineCell(ej.Efficiency, ftoa))
		}
		unsupported := strings.Join(a.Unsupported, " ")
		if unsupported == "" {
			unsupported = "-"
		}
		t.add(append(row, ftoa(a.PP), unsupported)...)
		for _, w := range a.Warnings {
			notes = append(notes, a.Application+": "+w)
		}
	}
	if of.csv {
		if err := t.write(e.stdout, true); err != nil {
			return err
		}
		return writeRooflineNotes(e.stderr, "graphperf: model portability: note: ", notes)
	}
	fmt.Fprintf(e.stdout, "%s: performance portability over H = {%s}: the harmonic mean of the efficiencies, 0 if unsupported on any platform of H (Pennycook; seed 002 §2.1)\n\n",
		file, strings.Join(out.Platforms, ", "))
	if err := t.write(e.stdout, false); err != nil {
		return err
	}
	return writeRooflineNotes(e.stdout, "\nnotes:\n", notes)
}

func portabilityRead(path string) (records []portability.Record, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	return portability.ReadCSV(f, path)
}
