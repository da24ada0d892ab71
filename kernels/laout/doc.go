// Package laout reads what graphperf-la prints (kernels/cuda/LINALG.md):
// its total lines, the names of its implementations and the sweep
// coordinates in the graph names of kernels/corpus/h100-la.yaml.
package laout
