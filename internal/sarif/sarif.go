// Package sarif holds the subset of SARIF 2.1.0 (the Static Analysis
// Results Interchange Format that code-scanning services read) that
// xpmigrate writes: one run of one tool, rules, and results located in
// files, optionally at a line.
//
//	rules, results = sarif.Index(byID, results)
//	err := sarif.Write(w, sarif.New(sarif.Driver{Name: "xpmigrate verify", Rules: rules}, results))
package sarif

import (
	"encoding/json"
	"io"
	"sort"

	"github.com/pkg/errors"
)

// Schema is the JSON schema a log names.
const Schema = "https://json.schemastore.org/sarif-2.1.0.json"

// A Log is a SARIF log.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// A Run is one run of a tool and its results.
type Run struct {
	Tool    Tool     `json:"tool"`
	Results []Result `json:"results"`
}

// A Tool is what produced the results.
type Tool struct {
	Driver Driver `json:"driver"`
}

// A Driver names the tool and lists its rules.
type Driver struct {
	Name           string `json:"name"`
	InformationURI string `json:"informationUri,omitempty"`
	Rules          []Rule `json:"rules"`
}

// A Rule is one kind of result.
type Rule struct {
	ID               string  `json:"id"`
	Name             string  `json:"name,omitempty"`
	ShortDescription Message `json:"shortDescription"`
	Help             Message `json:"help"`
}

// A Message is a text.
type Message struct {
	Text string `json:"text"`
}

// A Result is one finding of a rule.
type Result struct {
	RuleID     string         `json:"ruleId"`
	RuleIndex  int            `json:"ruleIndex"`
	Level      string         `json:"level"`
	Kind       string         `json:"kind,omitempty"`
	Message    Message        `json:"message"`
	Locations  []Location     `json:"locations"`
	Properties map[string]any `json:"properties,omitempty"`
}

// A Location is where a result is.
type Location struct {
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
}

// A PhysicalLocation is a file and, optionally, a region of it.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

// An ArtifactLocation names a file.
type ArtifactLocation struct {
	URI string `json:"uri"`
}

// A Region is a place in a file.
type Region struct {
	StartLine int `json:"startLine"`
}

// At locates a result in a file, at a line when line is positive.
func At(uri string, line int) []Location {
	l := Location{PhysicalLocation: PhysicalLocation{ArtifactLocation: ArtifactLocation{URI: uri}}}
	if line > 0 {
		l.PhysicalLocation.Region = &Region{StartLine: line}
	}
	return []Location{l}
}

// New returns a log of one run of driver with results.
func New(driver Driver, results []Result) Log {
	if results == nil {
		results = []Result{}
	}
	return Log{Schema: Schema, Version: "2.1.0", Runs: []Run{{Tool: Tool{Driver: driver}, Results: results}}}
}

// Index returns the rules sorted by id and the results (never nil), each
// pointing at its rule by RuleIndex, found by its RuleID (0 when rules has
// no such id).
func Index(rules map[string]Rule, results []Result) ([]Rule, []Result) {
	ids := make([]string, 0, len(rules))
	for id := range rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	index := make(map[string]int, len(ids))
	sorted := make([]Rule, 0, len(ids))
	for i, id := range ids {
		index[id] = i
		sorted = append(sorted, rules[id])
	}
	out := make([]Result, 0, len(results))
	for _, r := range results {
		r.RuleIndex = index[r.RuleID]
		out = append(out, r)
	}
	return sorted, out
}

// Write writes the log as indented JSON, ending in a newline.
func Write(w io.Writer, log Log) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return errors.Wrap(enc.Encode(log), "cannot encode SARIF report")
}
