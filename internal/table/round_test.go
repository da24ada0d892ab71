package table

import "testing"

func TestRound3(t *testing.T) {
	for in, want := range map[string]string{
		"0.0042315": "0.00423", "12.3456": "12.3", "1234.5678": "1235", "99.96": "100", "0.099964": "0.100",
		"0.0000123456": "1.23e-05", "-3.14159": "-3.14", "0.0": "0", "42": "42", "3.1x": "3.1x", "NaN": "NaN", "abc": "abc",
		// It only shortens: no digits the source does not have.
		"0.2": "0.2", "0.20": "0.20", "1e-5": "1e-5", "-6.5": "-6.5", "2.5": "2.5",
	} {
		if got := Round3(in); got != want {
			t.Errorf("Round3(%q) = %q, want %q", in, got, want)
		}
	}
}
