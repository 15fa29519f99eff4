package junit

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAdd(t *testing.T) {
	var s Suite
	s.Add(Case{Name: "pass"})
	s.Add(Case{Name: "fail", Failure: &Failure{Message: "m"}})
	s.Add(Case{Name: "skip", Skipped: &Skipped{Message: "m"}})
	doc := Suites{Name: "d"}
	doc.Add(s)
	doc.Add(Suite{Name: "other", Tests: 2, Failures: 1, Errors: 1})
	want := Suites{Name: "d", Tests: 5, Failures: 2, Errors: 1, Skipped: 1, Suites: []Suite{
		{Tests: 3, Failures: 1, Skipped: 1, Cases: s.Cases},
		{Name: "other", Tests: 2, Failures: 1, Errors: 1},
	}}
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("Suite.Add and Suites.Add count every case and suite: -want, +got:\n%s", diff)
	}
}
