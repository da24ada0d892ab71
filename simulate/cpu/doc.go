// Package cpu simulates seed 000's single-threaded topology-driven BFS on a
// CPU cache hierarchy, memory instruction by memory instruction, and feeds
// each round's hit counts to the operator-machine CPU model (seed 000 §4).
package cpu
