package migrate

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

// fakeConverter converts the simple Compositions the tests use, as text:
// spec.resources (indented two spaces, the last key of spec) moves into a
// patch-and-transform step. It refuses Compositions named "bad-*" (C107),
// fails on files containing CONVERT-FAILS, and calls hook first. It reports
// document statuses unless noStatus is set.
type fakeConverter struct {
	mu       sync.Mutex
	calls    []string
	hook     func(path string)
	noStatus bool
}

var _ Converter = &fakeConverter{}

func (f *fakeConverter) Convert(ctx context.Context, req ConvertRequest) (*ConvertResponse, error) {
	f.mu.Lock()
	f.calls = append(f.calls, req.Path)
	f.mu.Unlock()
	if f.hook != nil {
		f.hook(req.Path)
	}
	if strings.Contains(string(req.Data), "CONVERT-FAILS") {
		return nil, errors.New("C102 cannot parse YAML")
	}
	resp := &ConvertResponse{}
	var out strings.Builder
	docs := splitRawDocs(string(req.Data))
	for i, d := range docs {
		body := d.body
		st := DocSkipped
		if strings.Contains(body, "kind: Composition\n") {
			st = DocUnchanged
		}
		if strings.Contains(body, "kind: Composition\n") && !strings.Contains(body, "mode: Pipeline") {
			name := regexp.MustCompile(`(?m)^  name: (\S+)`).FindStringSubmatch(body)
			n := ""
			if name != nil {
				n = name[1]
			}
			switch {
			case strings.HasPrefix(n, "bad"):
				st = DocFailed
				resp.Diagnostics = append(resp.Diagnostics, Diagnostic{Code: "C107", Severity: SeverityError, Document: i, Composition: n, Path: "spec.resources", Message: "no resources"})
			case req.Phase1:
				if b := fakePhase1(body); b != body {
					body, st = b, DocConverted
				}
			default:
				body, st = fakeConvert(body, req.PatchAndTransform), DocConverted
				resp.Diagnostics = append(resp.Diagnostics, Diagnostic{Code: "C310", Severity: SeverityInfo, Document: i, Composition: n, Message: "fake info"})
				if strings.Contains(body, "toFieldPath: metadata.") {
					resp.Diagnostics = append(resp.Diagnostics, Diagnostic{Code: "C209", Severity: SeverityWarning, Document: i, Composition: n, Message: "XR write outside status"})
				}
			}
		}
		out.WriteString(d.sep)
		out.WriteString(body)
		if !f.noStatus {
			resp.Documents = append(resp.Documents, DocumentStatus{Index: i, Status: st})
		}
	}
	resp.Data = []byte(out.String())
	return resp, nil
}

type rawDoc struct{ sep, body string }

// splitRawDocs splits text on "---" lines, keeping each separator line with
// the document it opens, so that joining gives the text back.
func splitRawDocs(s string) []rawDoc {
	var docs []rawDoc
	cur := rawDoc{}
	var body strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.TrimRight(l, "\n") == "---" {
			cur.body = body.String()
			body.Reset()
			docs = append(docs, cur)
			cur = rawDoc{sep: l}
			continue
		}
		body.WriteString(l)
	}
	cur.body = body.String()
	docs = append(docs, cur)
	if docs[0].sep == "" && docs[0].body == "" && len(docs) > 1 {
		// A leading separator opens the first document.
		docs = docs[1:]
	}
	return docs
}

const fakeHeader = `  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef:
      name: function-patch-and-transform
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
`

// fakeConvert converts a legacy Composition, naming function-patch-and-
// transform ptName as the converter does (its default when empty).
func fakeConvert(body, ptName string) string {
	header := fakeHeader
	if ptName != "" {
		header = strings.Replace(header, "name: function-patch-and-transform", "name: "+ptName, 1)
	}
	lines := strings.SplitAfter(body, "\n")
	var b strings.Builder
	in := false
	for _, l := range lines {
		t := strings.TrimRight(l, "\n")
		switch {
		case strings.HasPrefix(t, "  mode: Resources"):
			continue
		case t == "  resources:":
			b.WriteString(header)
			in = true
			continue
		case in && (t == "" || strings.HasPrefix(t, "  -") || strings.HasPrefix(t, "   ") || strings.HasPrefix(strings.TrimSpace(t), "#") && strings.HasPrefix(t, "  ")):
			if t != "" {
				b.WriteString("    ")
			}
		default:
			in = false
		}
		b.WriteString(l)
	}
	return b.String()
}

func fakePhase1(body string) string {
	n := 0
	var b strings.Builder
	for _, l := range strings.SplitAfter(body, "\n") {
		if strings.TrimRight(l, "\n") == "  - base:" {
			fmt.Fprintf(&b, "  - name: resource-%d\n    base:\n", n)
			n++
			continue
		}
		if strings.HasPrefix(l, "  - ") {
			n++
		}
		b.WriteString(l)
	}
	return b.String()
}

// fakeVerifier finds every sample equivalent, except for Compositions named
// "differs-*" (an unexplained difference) and "gap-*" (a known gap C208).
type fakeVerifier struct {
	mu    sync.Mutex
	calls []string
}

var _ Verifier = &fakeVerifier{}

func (f *fakeVerifier) Verify(_ context.Context, req VerifyRequest) (*Verification, error) {
	legacy, err := manifest.DecodeObject(req.Legacy)
	if err != nil {
		return nil, err
	}
	converted, err := manifest.DecodeObject(req.Converted)
	if err != nil {
		return nil, err
	}
	name := jsonobj.String(legacy, "metadata", "name")
	if name != req.Name {
		return nil, errors.Errorf("the legacy document names %q, the request %q", name, req.Name)
	}
	var srcs []string
	for _, s := range req.Samples {
		srcs = append(srcs, s.Source)
	}
	f.mu.Lock()
	f.calls = append(f.calls, fmt.Sprintf("%s: %s", name, strings.Join(srcs, ",")))
	f.mu.Unlock()
	if mode := jsonobj.String(converted, "spec", "mode"); mode != "Pipeline" {
		return nil, errors.Errorf("converted Composition %q is not a pipeline", name)
	}
	if strings.HasPrefix(name, "broken") {
		return nil, errors.New("cannot render")
	}
	v := &Verification{}
	samples := append([]Sample(nil), req.Samples...)
	for i := 0; i < req.Synthesize; i++ {
		samples = append(samples, Sample{Source: fmt.Sprintf("synthesized#%d", i)})
	}
	for _, s := range samples {
		sr := SampleResult{Source: s.Source, Legacy: "apiVersion: v1\nkind: X\nspec:\n  size: 1\n", Pipeline: "apiVersion: v1\nkind: X\nspec:\n  size: 1\n"}
		switch {
		case strings.HasPrefix(name, "differs"):
			sr.Differences = []Difference{{Path: "composed[bucket].spec.size", Legacy: "1", Pipeline: "2"}}
			sr.Pipeline = "apiVersion: v1\nkind: X\nspec:\n  size: 2\n"
		case strings.HasPrefix(name, "gap"):
			sr.Differences = []Difference{{Path: "composed[bucket].spec.name", Legacy: "a, b", Pipeline: "a, b,", Code: "C208", Message: "Join separator longer than one byte"}}
		}
		v.Samples = append(v.Samples, sr)
	}
	return v, nil
}

func (f *fakeVerifier) sortedCalls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := append([]string(nil), f.calls...)
	sort.Strings(out)
	return out
}

// nopVerifier finds every sample equivalent without rendering anything.
type nopVerifier struct{}

func (nopVerifier) Verify(_ context.Context, req VerifyRequest) (*Verification, error) {
	v := &Verification{}
	for _, s := range req.Samples {
		v.Samples = append(v.Samples, SampleResult{Source: s.Source})
	}
	return v, nil
}
