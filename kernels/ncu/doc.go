// Package ncu reads the CSV that NVIDIA Nsight Compute writes with
// "ncu --csv --page raw": one launch per row, metrics in base units, with
// typed errors naming the file, line and metric. The store, the operator
// machine and the roofline read ncu profiles through it.
package ncu
