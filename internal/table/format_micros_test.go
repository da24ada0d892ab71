package table

import "testing"

func TestMicros(t *testing.T) {
	for _, c := range []struct {
		ns   float64
		want string
	}{
		{0, "0"},
		{1500, "1.5"},
		{12345, "12.35"},
		{1e6, "1000"},
		{123456789, "1.235e+05"},
	} {
		if got := Micros(c.ns); got != c.want {
			t.Errorf("Micros(%v) = %q, want %q", c.ns, got, c.want)
		}
	}
}
