package cache

import "errors"

// Errors returned for bad configurations. Constructors wrap them with the
// offending value, so test with errors.Is.
var (
	// ErrLineBytes: a line size that is not a power of two of at least 2.
	ErrLineBytes = errors.New("cache: line size is not a power of two >= 2")
	// ErrSectorBytes: a sector size that is not a power of two dividing the
	// line size, or more than MaxSectors sectors per line.
	ErrSectorBytes = errors.New("cache: invalid sector size")
	// ErrCapacity: a non-positive number of lines, sets, ways or slices, a
	// number of sets per slice that is not a power of two, or a capacity too
	// large to index.
	ErrCapacity = errors.New("cache: invalid capacity")
	// ErrHierarchy: a hierarchy without levels, or with levels whose line
	// sizes differ or that are sectored.
	ErrHierarchy = errors.New("cache: invalid hierarchy")
)
