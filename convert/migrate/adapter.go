package migrate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pkg/errors"
	yaml3 "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/convert/v2native"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/redact"
	"github.com/xpmigrate/xpmigrate/render"
	"github.com/xpmigrate/xpmigrate/render/engine"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// This file is the only one that knows the convert and render/verify
// packages: everything else talks to the Converter and Verifier
// interfaces, so tests use fakes and the migrator does not follow every change
// of those APIs. (The scan shares convert/yamledit's YAML reading.)

// NewConverter returns a Converter backed by v2native.Convert. base carries
// the options a run shares (name strategy, strictness, compensations…);
// each request sets Source, Target, Phase1 and, unless base sets them, the
// function names.
func NewConverter(base convert.Options) Converter {
	return converterAdapter{base: base}
}

type converterAdapter struct{ base convert.Options }

func (a converterAdapter) Convert(_ context.Context, req ConvertRequest) (*ConvertResponse, error) {
	o := ConvertOptions(a.base, ConvertInputs{
		Source: req.Path, Target: req.Target, Phase1: req.Phase1,
		PatchAndTransform: req.PatchAndTransform, EnvironmentConfigs: req.EnvironmentConfigs,
		XRDs: req.XRDs, Compositions: req.Compositions,
	})
	res, err := v2native.Convert(req.Data, o)
	if err != nil {
		return nil, err
	}
	out := res.Output
	if req.Format == "json" && !bytes.Equal(out, req.Data) {
		// The converter edits YAML nodes; a JSON file stays JSON.
		if out, err = yamlToOrderedJSON(out); err != nil {
			return nil, errors.Wrapf(err, "cannot write %s back as JSON", req.Path)
		}
	}
	resp := &ConvertResponse{Data: out}
	for _, d := range res.Diagnostics {
		resp.Diagnostics = append(resp.Diagnostics, Diagnostic{
			Code: string(d.Code), Severity: string(d.Severity), Document: d.Document, Line: d.Line,
			Composition: d.Composition, Path: d.Path, Message: d.Message,
		})
	}
	for _, d := range res.Documents {
		resp.Documents = append(resp.Documents, DocumentStatus{Index: d.Index, Status: string(d.Status), Before: d.Before, After: d.After, Lines: d.Lines})
	}
	return resp, nil
}

// yamlToOrderedJSON writes a YAML document as indented JSON, keeping the
// order of keys. Scalars keep the types YAML gives them; a value JSON
// cannot hold (such as .inf) is an error.
func yamlToOrderedJSON(doc []byte) ([]byte, error) {
	var n yaml3.Node
	if err := yaml3.Unmarshal(doc, &n); err != nil {
		return nil, err
	}
	if n.Kind != yaml3.DocumentNode || len(n.Content) != 1 {
		return nil, errors.New("not a single YAML document")
	}
	var b bytes.Buffer
	if err := writeJSON(&b, n.Content[0], ""); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	if !json.Valid(b.Bytes()) {
		return nil, errors.New("the result is not valid JSON")
	}
	return b.Bytes(), nil
}

func writeJSON(b *bytes.Buffer, n *yaml3.Node, indent string) error {
	n = tree.Resolve(n)
	inner := indent + "  "
	switch n.Kind {
	case yaml3.MappingNode, yaml3.SequenceNode:
		// A mapping's content is keys and values, a sequence's its items.
		open, end, step := "{", "}", 2
		if n.Kind == yaml3.SequenceNode {
			open, end, step = "[", "]", 1
		}
		if len(n.Content) == 0 {
			b.WriteString(open + end)
			return nil
		}
		b.WriteString(open + "\n")
		for i := 0; i+step-1 < len(n.Content); i += step {
			b.WriteString(inner)
			if step == 2 {
				k, _ := json.Marshal(tree.Resolve(n.Content[i]).Value)
				b.Write(k)
				b.WriteString(": ")
			}
			if err := writeJSON(b, n.Content[i+step-1], inner); err != nil {
				return err
			}
			if i+step < len(n.Content) {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + end)
	case yaml3.ScalarNode:
		switch n.Tag {
		case "!!null":
			b.WriteString("null")
		case "!!bool", "!!int", "!!float":
			var v any
			if err := n.Decode(&v); err != nil {
				return err
			}
			j, err := json.Marshal(v)
			if err != nil {
				return err
			}
			b.Write(j)
		default:
			j, err := json.Marshal(n.Value)
			if err != nil {
				return err
			}
			b.Write(j)
		}
	default:
		return errors.Errorf("unsupported YAML node kind %d", n.Kind)
	}
	return nil
}

// NewVerifier returns a Verifier backed by verify.Verify, simulating
// reconciles until both sides are stable. With renders set it also renders
// each side once more to fill SampleResult.Legacy and Pipeline (for the
// HTML report).
func NewVerifier(renders bool) Verifier {
	return verifierAdapter{renders: renders}
}

type verifierAdapter struct{ renders bool }

func (a verifierAdapter) Verify(ctx context.Context, req VerifyRequest) (*Verification, error) {
	legacy := verify.Document{Path: req.File, Data: req.Legacy, JSON: req.LegacyJSON, Lines: req.LegacyLines}
	converted := verify.Document{Path: req.File, Data: req.Converted, JSON: req.ConvertedJSON}
	samples := make([]verify.Sample, 0, len(req.Samples)+req.Synthesize)
	for _, s := range req.Samples {
		file, _, _ := strings.Cut(s.Source, "#")
		samples = append(samples, verify.Sample{Name: s.Source, Source: file, XR: s.Object})
	}
	var synthErr *SampleResult
	if req.Synthesize > 0 && req.XRD != nil {
		// Synthesis reads the XRD's schema; without an XRD there is
		// nothing to generate from.
		gen, err := verify.Synthesize(req.XRD, legacy, req.Synthesize)
		if err != nil {
			synthErr = &SampleResult{Source: "synthesized", Status: VerifyError, Error: err.Error()}
		}
		samples = append(samples, gen...)
	}
	if len(samples) == 0 {
		v := &Verification{}
		if synthErr != nil {
			v.Samples = append(v.Samples, *synthErr)
		}
		deriveStatus(v)
		return v, nil
	}
	o := verify.Options{Extra: req.Extra, XRD: req.XRD, Target: req.Target, Accept: req.Accept}

	v := a.check(ctx, req, samples, o, legacy, converted)
	if synthErr != nil {
		v.Samples = append(v.Samples, *synthErr)
		v.Status = ""
		deriveStatus(v)
	}
	return v, nil
}

// check runs verify.Verify for the samples.
func (a verifierAdapter) check(ctx context.Context, req VerifyRequest, samples []verify.Sample, o verify.Options, legacy, converted verify.Document) *Verification {
	rep, err := verify.Verify(ctx, legacy, converted, samples, o)
	var perSample []error
	if err != nil {
		if ctx.Err() != nil || len(samples) < 2 {
			return a.fromReport(ctx, req, nil, []error{err}, samples, o, legacy, converted)
		}
		// One bad sample fails the whole call: check them one by one so
		// the others still count.
		rep = &verify.Report{}
		var unexercised map[verify.PatchRef]bool
		for _, s := range samples {
			r, err := verify.Verify(ctx, legacy, converted, []verify.Sample{s}, o)
			perSample = append(perSample, err)
			if err != nil {
				rep.Samples = append(rep.Samples, verify.SampleReport{Sample: s.Name})
				continue
			}
			rep.Samples = append(rep.Samples, r.Samples...)
			// Unexercised by all: by every sample that ran.
			next := map[verify.PatchRef]bool{}
			for _, p := range r.Unexercised {
				if unexercised == nil || unexercised[p] {
					next[p] = true
				}
			}
			unexercised = next
			rep.Unexercised = rep.Unexercised[:0]
			for _, p := range r.Unexercised {
				if unexercised[p] {
					rep.Unexercised = append(rep.Unexercised, p)
				}
			}
		}
	}
	return a.fromReport(ctx, req, rep, perSample, samples, o, legacy, converted)
}

// fromReport maps a verify.Report (nil when the call failed) to a
// Verification. errs holds the per-sample errors, or one error for all.
func (a verifierAdapter) fromReport(ctx context.Context, req VerifyRequest, rep *verify.Report, errs []error, samples []verify.Sample, o verify.Options, legacy, converted verify.Document) *Verification {
	v := &Verification{}
	if rep == nil {
		msg := errs[0].Error()
		for _, s := range samples {
			v.Samples = append(v.Samples, SampleResult{Source: s.Name, Status: VerifyError, Error: msg})
		}
		if len(samples) == 0 {
			v.Error = msg
		}
		deriveStatus(v)
		return v
	}
	for i, sr := range rep.Samples {
		res := SampleResult{Source: sr.Sample}
		if i < len(errs) && errs[i] != nil {
			res.Status, res.Error = VerifyError, errs[i].Error()
			v.Samples = append(v.Samples, res)
			continue
		}
		res.Status = statusOf(sr.Verdict)
		if sr.Verdict == verify.Inconclusive {
			res.LegacyError, res.PipelineError, res.Hint = sr.LegacyError, sr.PipelineError, sr.Hint
		}
		if sr.Ready != nil {
			res.Ready = sr.Ready.Legacy + " -> " + sr.Ready.Pipeline
		}
		for _, d := range sr.Differences {
			res.Differences = append(res.Differences, fromDifference(d))
		}
		if a.renders && i < len(samples) {
			res.Legacy, res.Pipeline = renders(ctx, req, samples[i].XR, o)
		}
		v.Samples = append(v.Samples, res)
	}
	for _, p := range rep.Unexercised {
		v.Unexercised = append(v.Unexercised, patchRef(p))
	}
	v.Fails = rep.Fails(false)
	if rep.Verdict != "" {
		v.Status, v.Reason, v.Hint = statusOf(rep.Verdict), rep.Reason, rep.Hint
	}
	for _, s := range v.Samples {
		if s.Status == VerifyError {
			// A sample that could not be checked makes the whole check
			// an error, whatever the others say.
			v.Status = ""
		}
	}
	deriveStatus(v)
	return v
}

// statusOf maps verify's verdict to the migrator's.
func statusOf(v verify.Verdict) VerifyStatus {
	switch v {
	case verify.Equivalent:
		return VerifyEquivalent
	case verify.EquivalentUpToMapping:
		return VerifyEquivalentUpToMapping
	case verify.IntendedChange:
		return VerifyIntendedChange
	case verify.KnownGaps:
		return VerifyKnownGaps
	case verify.Inconclusive:
		return VerifyInconclusive
	case verify.Unverified:
		return VerifyUnverified
	}
	return VerifyDifferences
}

func fromDifference(d verify.Difference) Difference {
	out := Difference{Path: string(d.Aspect)}
	if d.Resource != "" {
		out.Path += "[" + d.Resource + "]"
	}
	if p := d.Path.String(); p != "" {
		out.Path += "." + p
	}
	if d.Legacy != nil {
		out.Legacy = valueText(d.Legacy.V)
	}
	if d.Pipeline != nil {
		out.Pipeline = valueText(d.Pipeline.V)
	}
	if c := d.Candidate; c != nil && d.Gap == nil {
		out.Candidate = c.Code
	}
	if g := d.Gap; g != nil {
		out.Code = g.Code
		out.Class = string(g.Class)
		switch {
		case g.Proven:
			out.Proof = "proven by " + strings.Join(g.ProvenBy, "+")
		case g.Unproven != "":
			out.Proof = "unproven: " + g.Unproven
		}
		if g.Accepted {
			out.Accepted = g.AcceptedBy
		}
		msg := g.Title
		if len(g.Diagnostics) > 0 {
			msg += " [" + strings.Join(g.Diagnostics, ", ") + "]"
		}
		if g.Detail != "" {
			msg += ": " + g.Detail
		}
		if g.Fix != "" {
			msg += ". Fix: " + g.Fix
		}
		if d.Transient {
			msg += " (transient: gone by the last reconcile)"
		}
		out.Message = msg
	}
	return out
}

func valueText(v any) string {
	b, err := render.MarshalYAML(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(string(b), "\n")
}

func patchRef(p verify.PatchRef) string {
	var b strings.Builder
	if p.Resource != "" {
		fmt.Fprintf(&b, "resource %s ", p.Resource)
	} else {
		b.WriteString("environment ")
	}
	fmt.Fprintf(&b, "patch %d (%s", p.Index, p.Type)
	if p.From != "" {
		fmt.Fprintf(&b, " from %s", p.From)
	}
	if p.To != "" {
		fmt.Fprintf(&b, " to %s", p.To)
	}
	b.WriteString(")")
	if p.PatchSet != "" {
		fmt.Fprintf(&b, " of patchSet %s", p.PatchSet)
	}
	if p.Line > 0 {
		fmt.Fprintf(&b, " at line %d", p.Line)
	}
	return b.String()
}

// renders renders both sides until stable and prints them as crossplane
// render does; a side that fails shows its error.
func renders(ctx context.Context, req VerifyRequest, xr map[string]any, o verify.Options) (legacy, pipe string) {
	side := func(comp map[string]any, opts engine.Options) string {
		res, err := engine.Render(ctx, engine.Request{XR: xr, Composition: comp, Extra: o.Extra, XRD: o.XRD}, opts)
		var b bytes.Buffer
		if res != nil && res.Outcome != nil {
			// Reports show secret values as digests, as differences do.
			shown := *res.Outcome
			shown.Composed = make([]render.ComposedResource, len(res.Outcome.Composed))
			for i, cd := range res.Outcome.Composed {
				cd.Desired = redact.Object(cd.Desired)
				shown.Composed[i] = cd
			}
			if perr := render.Print(&b, &shown, render.PrintOptions{}); perr != nil {
				fmt.Fprintf(&b, "# cannot print: %v\n", perr)
			}
		}
		if err != nil {
			fmt.Fprintf(&b, "# reconcile error: %v\n", err)
		}
		return b.String()
	}
	lobj, err := manifest.DecodeObject(req.Legacy)
	if err != nil {
		return "", ""
	}
	cobj, err := manifest.DecodeObject(req.Converted)
	if err != nil {
		return "", ""
	}
	legacy = side(lobj, engine.Options{UntilStable: true, Target: req.Target})
	pipe = side(cobj, engine.Options{UntilStable: true, Target: req.Target, Profile: pipeline.Reconciler})
	return legacy, pipe
}

var _ Twinner = converterAdapter{}

// Twins: target v2 with a v2-native XR scope (not legacy).
func (a converterAdapter) Twins(target crossplane.Target) bool {
	return target == crossplane.V2 && a.base.XRScope != convert.XRScopeLegacy
}

func (a converterAdapter) Twin(_ context.Context, req TwinRequest) (*TwinResponse, error) {
	out, diags, err := v2native.XRTwin(req.Doc, v2native.TwinType{Group: req.Group, Kind: req.Kind, Plural: req.Plural, Version: req.Version}, a.base)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot write the v2 twin of an example in %s", req.Path)
	}
	resp := &TwinResponse{Data: out}
	for _, d := range diags {
		resp.Diagnostics = append(resp.Diagnostics, Diagnostic{
			Code: string(d.Code), Severity: string(d.Severity), Document: d.Document, Line: d.Line,
			Composition: d.Composition, Path: d.Path, Message: d.Message,
		})
	}
	return resp, nil
}
