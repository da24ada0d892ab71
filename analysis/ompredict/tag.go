package ompredict

import (
	"path/filepath"
	"strings"
)

// SourceTag is the name a prediction's figures and tables carry after its
// input file path (a graph or an ncu CSV): the file's base name without
// its .gz, .csv, .gpg, .txt and .jsonl extensions, stripped in that
// order ("data/rmat-s18-e8.csv.gz" is "rmat-s18-e8"). O(len(path)).
func SourceTag(path string) string {
	base := filepath.Base(path)
	for _, ext := range []string{".gz", ".csv", ".gpg", ".txt", ".jsonl"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}
