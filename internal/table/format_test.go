package table

import "testing"

func TestFormats(t *testing.T) {
	v := 0.0456
	for _, c := range []struct{ got, want string }{
		{G6(1.0 / 3), "0.333333"}, {G6(15e6), "1.5e+07"}, {OptG6(nil), ""}, {OptG6(&v), "0.0456"},
		{Int(-42), "-42"}, {IntOrDash(0), "-"}, {IntOrDash(7), "7"}, {F3(1.0976), "1.098"},
		{Times(3.1749), "3.17x"}, {Percent(0.694), "69%"}, {Percent1(0.0781), "7.8%"},
		{OptPercent(nil), "-"}, {OptPercent(&v), "4.6%"}, {Slug("  Time (ms) / level! "), "time-ms-level"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	small := 0.00045
	if got := OptPercent(&small); got != "0.045%" {
		t.Errorf("OptPercent(0.00045) = %q, want 0.045%%", got)
	}
	if ValueCol("t", "x", true).Kind != Number || ValueCol("t", "x", false).Kind != Text {
		t.Error("ValueCol kinds")
	}
}
