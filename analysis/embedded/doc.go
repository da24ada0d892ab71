// Package embedded opens the store of the embedded measured datasets and
// rebuilds the graphs of their sweeps, each once, into the cache; it
// resolves "embedded:" arguments and reads the embedded dataset once per
// process.
package embedded
