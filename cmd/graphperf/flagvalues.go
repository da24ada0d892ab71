package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
)

// flagsSet returns the names of the flags given on the command line.
func flagsSet(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// parseFloats parses a comma-separated list of numbers of flag flagName.
func parseFloats(flagName, s string) ([]float64, error) {
	var out []float64
	for _, f := range splitList(s) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a number", flagName, f)
		}
		out = append(out, v)
	}
	return out, nil
}

// parseInts parses a comma-separated list of integers of at least least of
// flag flagName.
func parseInts(flagName, s string, least int) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		v, err := strconv.Atoi(f)
		if err != nil || v < least {
			return nil, fmt.Errorf("%s: %q: want an integer of at least %d", flagName, f, least)
		}
		out = append(out, v)
	}
	return out, nil
}
