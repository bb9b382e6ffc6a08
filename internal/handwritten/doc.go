// Package handwritten holds, in its subpackages rotation, clocks and
// eightpuzzle, the hand-written references of three shipped puzzles: the
// oracles the differential tests and benchmarks hold the generic engine
// (reference/puzzle) to, and the generators of those problems' test data.
// The judge never runs them: only tests import them, which
// TestOnlyTestsImport checks.
package handwritten
