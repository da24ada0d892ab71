package predict

// EmbeddedFiles returns the models embedded in the binary, by their path
// in the repository: the default model and the two held-out ones. A
// report's manifest records their hashes. The slices are the embedded
// bytes: callers must not modify them.
func EmbeddedFiles() map[string][]byte {
	return map[string][]byte{
		"model/predict/default-h100.json.gz":        defaultModel,
		"model/predict/heldout-graphs-h100.json.gz": heldOutGraphs,
		"model/predict/heldout-real-h100.json.gz":   heldOutReal,
	}
}
