// Package faultpoint kills the process at a named write point when a test asks it to, so that tests can check what a kill -9 at that point leaves behind.
package faultpoint
