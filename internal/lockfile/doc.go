// Package lockfile holds advisory locks between processes (flock on a file that names its holder: pid, command line, start time), and finds the temporary files that a killed process left behind.
package lockfile
