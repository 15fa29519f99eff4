// Package junit holds the JUnit XML model (the Ant/Jenkins schema most CI
// systems read) that `verify --format junit` and `migrate --format junit`
// write: test suites of test cases that pass, fail or are skipped.
//
//	err := junit.Write(w, junit.Suites{Name: "xpmigrate verify", Suites: []junit.Suite{suite}})
package junit

import (
	"encoding/xml"
	"io"

	"github.com/pkg/errors"
)

// Suites is the document: the test suites and their totals.
type Suites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Skipped  int      `xml:"skipped,attr,omitempty"`
	Suites   []Suite  `xml:"testsuite"`
}

// A Suite is a group of test cases and its totals.
type Suite struct {
	Name     string `xml:"name,attr"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Cases    []Case `xml:"testcase"`
}

// A Case is one test case: it passes, or has a Failure, or is Skipped.
type Case struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	File      string   `xml:"file,attr,omitempty"`
	Failure   *Failure `xml:"failure,omitempty"`
	Skipped   *Skipped `xml:"skipped,omitempty"`
	SystemOut string   `xml:"system-out,omitempty"`
}

// A Failure says why a case failed.
type Failure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// Skipped says why a case proved nothing.
type Skipped struct {
	Message string `xml:"message,attr"`
}

// Write writes the document with its XML header, indented, ending in a
// newline.
func Write(w io.Writer, doc Suites) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return errors.Wrap(err, "cannot encode JUnit report")
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// Add appends a case to the suite and counts it: a test, and a failure or
// a skip when it has one.
func (s *Suite) Add(c Case) {
	s.Cases = append(s.Cases, c)
	s.Tests++
	if c.Failure != nil {
		s.Failures++
	}
	if c.Skipped != nil {
		s.Skipped++
	}
}

// Add appends a suite to the document and adds its totals to the
// document's.
func (d *Suites) Add(s Suite) {
	d.Suites = append(d.Suites, s)
	d.Tests += s.Tests
	d.Failures += s.Failures
	d.Errors += s.Errors
	d.Skipped += s.Skipped
}
