package ompredict

import "testing"

func TestSourceTag(t *testing.T) {
	for path, want := range map[string]string{
		"embedded:ncu/rmat-s18-e8.csv.gz": "rmat-s18-e8",
		"/tmp/g/rmat10.gpg":               "rmat10",
		"testdata/fig2.txt":               "fig2",
		"runs/x.jsonl.gz":                 "x",
		"a.txt.gz":                        "a",
		"a.gz.csv":                        "a.gz", // .gz is stripped before .csv only
		"plain":                           "plain",
		"":                                ".",
	} {
		if got := SourceTag(path); got != want {
			t.Errorf("SourceTag(%q) = %q, want %q", path, got, want)
		}
	}
}
