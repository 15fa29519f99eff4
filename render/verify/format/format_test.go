package format

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/verifytest"
)

// reportFixture verifies testdata/report: a conversion with a changed
// transform (unexplained) and known gaps, for two XRs.
func reportFixture(t *testing.T) *verify.Report {
	t.Helper()
	return verifytest.Load(t, "testdata/report").Verify(t)
}

func TestWriteGolden(t *testing.T) {
	cases := map[string]struct {
		reason string
		opts   Options
	}{
		"text":       {reason: "Text without a terminal has no colour.", opts: Options{Format: Text}},
		"text-color": {reason: "Text on a terminal is coloured.", opts: Options{Format: Text, TTY: true}},
		"text-no-color": {
			reason: "NO_COLOR turns colour off on a terminal.",
			opts:   Options{Format: Text, TTY: true, NoColor: true},
		},
		"json":   {reason: "JSON is the report itself.", opts: Options{Format: JSON}},
		"junit":  {reason: "JUnit has one test case per sample.", opts: Options{Format: JUnit}},
		"sarif":  {reason: "SARIF has a rule per gap and a result per difference.", opts: Options{Format: SARIF}},
		"github": {reason: "GitHub workflow commands point at the legacy composition.", opts: Options{Format: GitHub}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			golden := filepath.Join("testdata", "output", name+".golden")
			if tc.opts.NoColor {
				golden = filepath.Join("testdata", "output", "text.golden")
			}
			// Twice, to catch nondeterminism.
			var outs []string
			for i := 0; i < 2; i++ {
				var b bytes.Buffer
				if err := Write(&b, reportFixture(t), tc.opts); err != nil {
					t.Fatalf("Write(...): %v", err)
				}
				outs = append(outs, b.String())
			}
			if diff := cmp.Diff(outs[0], outs[1]); diff != "" {
				t.Errorf("%s\nWrite(...) is not deterministic: -first, +second:\n%s", tc.reason, diff)
			}
			// The no-colour case must print what the text case does:
			// it compares with text.golden, which only the text case
			// rewrites.
			if tc.opts.NoColor {
				testutil.CompareGolden(t, golden, []byte(outs[0]))
			} else {
				testutil.Golden(t, golden, []byte(outs[0]))
			}
		})
	}
}

func TestWriteGitHubAnnotations(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, reportFixture(t), Options{Format: GitHub}); err != nil {
		t.Fatal(err)
	}
	var errorLines int
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if !strings.HasPrefix(l, "::error file=") && !strings.HasPrefix(l, "::warning file=") && !strings.HasPrefix(l, "::notice file=") {
			t.Errorf("not a workflow command: %q", l)
		}
		if strings.HasPrefix(l, "::error file=testdata/report/legacy.yaml,line=") {
			errorLines++
		}
		if strings.Count(l, "::") != 2 {
			t.Errorf("message not escaped: %q", l)
		}
	}
	if errorLines == 0 {
		t.Errorf("Write(github): no ::error annotation on the legacy composition:\n%s", b.String())
	}
}

func TestWriteJUnitValidates(t *testing.T) {
	xsd, err := os.ReadFile("testdata/schema/junit.xsd")
	if err != nil {
		t.Fatal(err)
	}
	schema := parseXSD(t, xsd)
	for name, r := range map[string]*verify.Report{
		"Different":  reportFixture(t),
		"Equivalent": verifytest.Load(t, "testdata/corpus/aws-network").Verify(t),
	} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, r, Options{Format: JUnit}); err != nil {
				t.Fatal(err)
			}
			for _, e := range schema.validate(b.Bytes()) {
				t.Errorf("JUnit report does not validate: %s", e)
			}
		})
	}
	t.Run("RejectsInvalid", func(t *testing.T) {
		bad := `<testsuites><testsuite tests="x"><testcase/></testsuite></testsuites>`
		if errs := schema.validate([]byte(bad)); len(errs) < 3 {
			t.Errorf("validate(%q): %v, want errors for name, tests and the test case's attributes", bad, errs)
		}
	})
}

func TestWriteSARIFValidates(t *testing.T) {
	raw, err := os.ReadFile("testdata/schema/sarif-2.1.0-subset.json")
	if err != nil {
		t.Fatal(err)
	}
	// kube-openapi's validator does not follow $ref: inline the
	// definitions (the schema has no cycles).
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	defs, _ := doc["definitions"].(map[string]any)
	delete(doc, "definitions")
	inlined, err := json.Marshal(inlineRefs(doc, defs))
	if err != nil {
		t.Fatal(err)
	}
	var schema spec.Schema
	if err := json.Unmarshal(inlined, &schema); err != nil {
		t.Fatal(err)
	}
	validator := validate.NewSchemaValidator(&schema, nil, "", strfmt.Default)
	check := func(doc []byte) []error {
		var v any
		if err := json.Unmarshal(doc, &v); err != nil {
			return []error{err}
		}
		return validator.Validate(v).Errors
	}
	for name, r := range map[string]*verify.Report{
		"Different":  reportFixture(t),
		"Equivalent": verifytest.Load(t, "testdata/corpus/aws-network").Verify(t),
	} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, r, Options{Format: SARIF}); err != nil {
				t.Fatal(err)
			}
			for _, e := range check(b.Bytes()) {
				t.Errorf("SARIF report does not validate: %v", e)
			}
		})
	}
	t.Run("RejectsInvalid", func(t *testing.T) {
		bad := `{"version": "2.0.0", "runs": [{"tool": {"driver": {}}, "results": [{"level": "fatal"}]}]}`
		if errs := check([]byte(bad)); len(errs) < 4 {
			t.Errorf("validate(%s): %v, want errors for version, name, message and level", bad, errs)
		}
	})
}

// inlineRefs replaces every {"$ref": "#/definitions/x"} by the definition.
func inlineRefs(v any, defs map[string]any) any {
	switch t := v.(type) {
	case map[string]any:
		if ref, ok := t["$ref"].(string); ok {
			return inlineRefs(defs[strings.TrimPrefix(ref, "#/definitions/")], defs)
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = inlineRefs(e, defs)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = inlineRefs(e, defs)
		}
		return out
	}
	return v
}

// An xsd is the part of an XML Schema the JUnit check reads: global
// element declarations with a sequence of element references (occurrence
// bounds), attributes (required, xs:int), and whether text is allowed.
type xsd map[string]xsdElement

type xsdElement struct {
	text     bool
	children []xsdChild
	attrs    map[string]xsdAttr
}

type xsdChild struct {
	name     string
	min, max int // max -1: unbounded
}

type xsdAttr struct {
	required bool
	integer  bool
}

func parseXSD(t *testing.T, b []byte) xsd {
	t.Helper()
	var doc struct {
		Elements []struct {
			Name    string `xml:"name,attr"`
			Type    string `xml:"type,attr"`
			Complex *struct {
				Mixed    bool `xml:"mixed,attr"`
				Sequence struct {
					Elements []struct {
						Ref       string `xml:"ref,attr"`
						MinOccurs string `xml:"minOccurs,attr"`
						MaxOccurs string `xml:"maxOccurs,attr"`
					} `xml:"element"`
				} `xml:"sequence"`
				Attributes []struct {
					Name string `xml:"name,attr"`
					Type string `xml:"type,attr"`
					Use  string `xml:"use,attr"`
				} `xml:"attribute"`
			} `xml:"complexType"`
		} `xml:"element"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	out := xsd{}
	for _, e := range doc.Elements {
		d := xsdElement{attrs: map[string]xsdAttr{}}
		if e.Complex == nil {
			d.text = e.Type == "xs:string"
			out[e.Name] = d
			continue
		}
		d.text = e.Complex.Mixed
		for _, c := range e.Complex.Sequence.Elements {
			ch := xsdChild{name: c.Ref, min: 1, max: 1}
			if c.MinOccurs != "" {
				ch.min, _ = strconv.Atoi(c.MinOccurs)
			}
			switch c.MaxOccurs {
			case "":
			case "unbounded":
				ch.max = -1
			default:
				ch.max, _ = strconv.Atoi(c.MaxOccurs)
			}
			d.children = append(d.children, ch)
		}
		for _, a := range e.Complex.Attributes {
			d.attrs[a.Name] = xsdAttr{required: a.Use == "required", integer: a.Type == "xs:int"}
		}
		out[e.Name] = d
	}
	return out
}

type xmlNode struct {
	name     string
	attrs    map[string]string
	children []*xmlNode
	text     string
}

func parseXML(b []byte) (*xmlNode, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	var stack []*xmlNode
	var root *xmlNode
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return root, nil
		}
		if err != nil {
			return nil, err
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			n := &xmlNode{name: tk.Name.Local, attrs: map[string]string{}}
			for _, a := range tk.Attr {
				n.attrs[a.Name.Local] = a.Value
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(tk)
			}
		}
	}
}

// validate checks a document whose root is testsuites.
func (s xsd) validate(doc []byte) []string {
	root, err := parseXML(doc)
	if err != nil {
		return []string{err.Error()}
	}
	if root == nil || root.name != "testsuites" {
		return []string{"root element is not testsuites"}
	}
	var errs []string
	var walk func(n *xmlNode, at string)
	walk = func(n *xmlNode, at string) {
		at += "/" + n.name
		d, ok := s[n.name]
		if !ok {
			errs = append(errs, at+": element not declared")
			return
		}
		for name, a := range d.attrs {
			v, ok := n.attrs[name]
			if !ok && a.required {
				errs = append(errs, at+": missing required attribute "+name)
			}
			if ok && a.integer {
				if _, err := strconv.Atoi(v); err != nil {
					errs = append(errs, at+": attribute "+name+" is not an xs:int: "+v)
				}
			}
		}
		for name := range n.attrs {
			if _, ok := d.attrs[name]; !ok {
				errs = append(errs, at+": attribute not declared: "+name)
			}
		}
		if !d.text && len(d.children) > 0 && strings.TrimSpace(n.text) != "" {
			errs = append(errs, at+": text not allowed")
		}
		// The children follow the sequence, each within its bounds.
		i := 0
		for _, c := range d.children {
			count := 0
			for i < len(n.children) && n.children[i].name == c.name {
				count++
				i++
			}
			if count < c.min || (c.max >= 0 && count > c.max) {
				errs = append(errs, at+": "+strconv.Itoa(count)+" "+c.name+" elements, out of bounds")
			}
		}
		if i < len(n.children) {
			errs = append(errs, at+": unexpected element "+n.children[i].name)
		}
		for _, c := range n.children {
			walk(c, at)
		}
	}
	walk(root, "")
	return errs
}

// TestWriteV2Golden writes the report of testdata/v2, a legacy Composition
// verified against its v2-native conversion and the mapping it declares.
func TestWriteV2Golden(t *testing.T) {
	cases := map[string]struct {
		reason string
		opts   Options
	}{
		"v2-text":         {reason: "Text lists the mapped fields a line per code.", opts: Options{Format: Text}},
		"v2-text-verbose": {reason: "Verbose text shows every mapped field with its values.", opts: Options{Format: Text, Verbose: true}},
		"v2-json":         {reason: "JSON has the mapping, the mapped count and each mapped difference's code.", opts: Options{Format: JSON}},
		"v2-github":       {reason: "GitHub annotations leave out the declared mapping: only the benign lags remain, as notices.", opts: Options{Format: GitHub}},
		"v2-sarif":        {reason: "SARIF has no result for the declared mapping.", opts: Options{Format: SARIF}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := verifytest.Load(t, "testdata/v2")
			c.Opts.Target = "v2"
			var b bytes.Buffer
			if err := Write(&b, c.Verify(t), tc.opts); err != nil {
				t.Fatalf("\n%s\nWrite(...): %v", tc.reason, err)
			}
			testutil.Golden(t, filepath.Join("testdata", "output", name+".golden"), b.Bytes())
		})
	}
}

// TestWriteTextOmitted: a sample whose differences a Combiner did not keep
// says how many there were, and fails when one of them fails.
func TestWriteTextOmitted(t *testing.T) {
	c := verify.Combiner{Detailed: 1}
	r := reportFixture(t)
	for i := range r.Samples {
		one := *r
		one.Samples = r.Samples[i : i+1]
		c.Add(&one)
	}
	combined := c.Report("")
	var b bytes.Buffer
	if err := Write(&b, combined, Options{Format: Text}); err != nil {
		t.Fatal(err)
	}
	s := combined.Samples[len(combined.Samples)-1]
	want := "FAIL " + s.Sample + ": different, "
	if s.Omitted == 0 || !s.OmittedFail {
		t.Fatalf("the fixture's last sample kept its differences (%d omitted): it should not", s.Omitted)
	}
	for _, line := range []string{want, strconv.Itoa(s.Omitted) + " differences not listed"} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("Write(text) of a combined report: no %q in:\n%s", line, b.String())
		}
	}
}
