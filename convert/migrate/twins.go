package migrate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
	"github.com/xpmigrate/xpmigrate/internal/udiff"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// Example twins (target v2): the claims and legacy XRs among the examples
// of the tree (the index's samples) get v2 XR twins, so that verify and
// the users' own tests have v2 samples. The twins of the examples of
// DIR/NAME.yaml go to DIR/NAME.v2.yaml (NAME.v2.yml for .yml), in the
// examples' order, in the tree or, with --out, in the output directory.
// A twin file that exists with other content is never overwritten (C475);
// files named *.v2.yaml are never examples of their own.

// A twinFile is the plan for one example file's twins.
type twinFile struct {
	src string // the example file, relative to Root
	rel string // the twin file, relative to Root
	// header opens the twin file; parts are the twins, in the examples'
	// order; data is the twin file's content: the header and the parts
	// whose XR type is not held back (holdback.go).
	header []byte
	parts  []twinPart
	data   []byte
	// have is the twin file's content in the tree, haveErr why it could
	// not be read (fs.ErrNotExist when there is none).
	have    []byte
	haveErr error
	// findings are about the example file; conflict is the C475 finding
	// when rel exists with other content.
	findings []Finding
	conflict *Finding
	// exists reports that rel is in the tree with data already; skip that
	// it is there with other content, or that there is nothing to write.
	exists, skip bool
}

// A twinPart is the twin of one example.
type twinPart struct {
	// xrType is the legacy XR type it is a twin for ("group|kind"): its
	// XRD's composite kind, else the example's kind.
	xrType string
	data   []byte
}

// planTwins writes the twins of every example file in memory and checks,
// before anything is written, that each twin file can be written.
func (r *runner) planTwins(ctx context.Context) error {
	t, ok := r.o.Converter.(Twinner)
	if !ok || r.o.Phase1 || !t.Twins(r.o.Target) {
		return nil
	}
	r.planHeldBack(ctx)
	byFile := map[string][]*tree.SampleInfo{}
	var files []string
	for _, s := range r.ix.Samples {
		if s.Item >= 0 || tree.TwinPath(s.File) == "" {
			continue // List items and JSON files get no twin.
		}
		if _, seen := byFile[s.File]; !seen {
			files = append(files, s.File)
		}
		byFile[s.File] = append(byFile[s.File], s)
	}
	sort.Strings(files)
	scannedByRel := map[string]*tree.Scanned{}
	for _, f := range r.files {
		scannedByRel[f.Rel] = f
	}
	for _, file := range files {
		tf, err := r.planTwinFile(ctx, t, scannedByRel[file], byFile[file])
		if err != nil {
			return err
		}
		if tf != nil {
			r.twins = append(r.twins, tf)
		}
	}
	return nil
}

func (r *runner) planTwinFile(ctx context.Context, t Twinner, f *tree.Scanned, samples []*tree.SampleInfo) (*twinFile, error) {
	if f == nil {
		return nil, nil
	}
	data, err := regularfile.ReadFile(f.Real)
	if err != nil || sha256.Sum256(data) != f.Sum {
		return nil, nil //nolint:nilerr // The file's own migration reports it vanished or changed.
	}
	text, err := manifest.Text(data)
	if err != nil {
		return nil, nil //nolint:nilerr // The scan reports the file unparseable.
	}
	docs := manifest.Split(text)
	tf := &twinFile{src: f.Rel, rel: tree.TwinPath(f.Rel),
		header: fmt.Appendf(nil, "# v2 XR twins of the examples in %s, written by xpmigrate migrate --target %s.\n", path.Base(f.Rel), r.o.Target)}
	for _, s := range samples {
		if s.Doc >= len(docs) {
			continue
		}
		doc := docs[s.Doc]
		req, ok := r.twinRequest(f.Rel, s, doc.Text)
		if !ok {
			continue
		}
		if why := r.twinHeldBack(req); why != "" {
			tf.findings = append(tf.findings, Finding{Code: "C476", Severity: SeverityWarning, Document: s.Doc, Line: doc.TextLine, Message: why})
			continue
		}
		resp, err := t.Twin(ctx, req)
		if err != nil {
			tf.findings = append(tf.findings, Finding{Code: "C476", Severity: SeverityWarning, Document: s.Doc, Line: doc.TextLine,
				Message: fmt.Sprintf("no v2 XR twin of this example: %v", err)})
			continue
		}
		for _, d := range resp.Diagnostics {
			d.Document = s.Doc
			if d.Line > 0 {
				d.Line += doc.TextLine - 1
			}
			tf.findings = append(tf.findings, d)
		}
		tf.parts = append(tf.parts, twinPart{xrType: req.Group + "|" + req.Kind, data: resp.Data})
	}
	if len(tf.parts) == 0 {
		if len(tf.findings) > 0 {
			// Only C476: report it, write nothing.
			tf.skip = true
			return tf, nil
		}
		return nil, nil
	}
	dst := filepath.Join(r.o.Root, filepath.FromSlash(tf.rel))
	tf.have, tf.haveErr = regularfile.ReadFile(dst)
	tf.settle(nil)
	if errors.Is(tf.haveErr, fs.ErrNotExist) && r.o.Write == WriteInPlace {
		if err := checkWritable(dst); err != nil {
			return nil, invalid("cannot write the v2 XR twins of %s: %v", f.Rel, err)
		}
	}
	return tf, nil
}

// settle sets the twin file's content, less the twins of the XR types
// held back, and whether it is to be written: not when it is in the tree
// already (exists), nor when the tree has other content there (skip, with
// the C475 conflict), nor when no twin is left.
func (tf *twinFile) settle(held map[string]heldType) {
	var b bytes.Buffer
	b.Write(tf.header)
	n := 0
	for _, p := range tf.parts {
		if _, ok := held[p.xrType]; ok {
			continue
		}
		n++
		if !bytes.HasSuffix(b.Bytes(), []byte("\n")) {
			b.WriteByte('\n')
		}
		if !bytes.HasPrefix(p.data, []byte("---")) {
			b.WriteString("---\n")
		}
		b.Write(p.data)
	}
	tf.data, tf.exists, tf.skip, tf.conflict = b.Bytes(), false, false, nil
	switch {
	case n == 0:
		tf.skip = true
	case tf.haveErr == nil && bytes.Equal(tf.have, tf.data):
		tf.exists = true
	case tf.haveErr == nil || !errors.Is(tf.haveErr, fs.ErrNotExist):
		tf.skip = true
		tf.conflict = &Finding{Code: "C475", Severity: SeverityWarning, Document: -1,
			Message: fmt.Sprintf("the v2 XR twins of these examples are not written: %s exists with other content, and migrate does not overwrite it; delete or rename it and run again", tf.rel)}
	}
}

// twinRequest returns the request for the twin of sample s: its XRD's
// type when the tree has the XRD, else the Composition type it matched.
func (r *runner) twinRequest(file string, s *tree.SampleInfo, text []byte) (TwinRequest, bool) {
	av, _ := s.Obj["apiVersion"].(string)
	kind, _ := s.Obj["kind"].(string)
	group, version := xp.SplitAPIVersion(av)
	req := TwinRequest{Path: file, Doc: text, Group: group, Kind: kind, Version: version}
	var best *tree.XRDInfo
	for _, x := range r.ix.XRDs {
		if x.Group != group || (kind != x.Kind && kind != x.ClaimKind) {
			continue
		}
		if best == nil || tree.CommonPrefix(x.File, file) > tree.CommonPrefix(best.File, file) {
			best = x
		}
	}
	if best == nil {
		// A legacy XR of a Composition's type, without its XRD: a claim
		// cannot be told from it.
		return req, len(r.ix.ByType[av+"|"+kind]) > 0
	}
	req.Kind = best.Kind
	req.Plural = jsonobj.String(best.Obj, "spec", "names", "plural")
	if best.Referenced != "" {
		req.Version = best.Referenced
	}
	return req, true
}

// writeTwins reports the twins on their example files and writes the twin
// files, after the files of the run are migrated. It returns outs with the
// outcomes of the twin files appended.
func (r *runner) writeTwins(ctx context.Context, outs []*outcome) []*outcome {
	if len(r.twins) == 0 || ctx.Err() != nil {
		return outs
	}
	byRel := map[string]int{}
	for i, f := range r.files {
		if i < len(outs) && outs[i] != nil {
			byRel[f.Rel] = i
		}
	}
	n := len(outs)
	for _, tf := range r.twins {
		if len(tf.parts) > 0 {
			tf.settle(r.held)
		}
		for _, fd := range tf.findings {
			r.addFinding(outs, byRel, tf.src, fd)
		}
		if tf.conflict != nil {
			r.addFinding(outs, byRel, tf.src, *tf.conflict)
		}
		if tf.skip || tf.exists {
			continue
		}
		outs = append(outs, r.newTwinFile(tf))
	}
	r.late = append(r.late, outs[n:]...)
	return outs
}

// newTwinFile writes a new twin file.
func (r *runner) newTwinFile(tf *twinFile) *outcome {
	oc := &outcome{emit: true, file: FileResult{Path: tf.rel, Status: FileConverted}}
	if r.o.Diff {
		oc.file.Diff = udiff.Unified("/dev/null", "b/"+tf.rel, nil, tf.data)
	}
	dst := filepath.Join(r.o.Root, filepath.FromSlash(tf.rel))
	switch r.o.Write {
	case WriteInPlace:
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil { //nolint:gosec // A tree others read.
			oc.file.Status, oc.file.Reason, oc.file.Detail = FileFailed, ReasonWriteError, err.Error()
			return oc
		}
		r.written(oc, writeAtomic(dst, tf.data, 0o644, func() error {
			if _, err := os.Lstat(dst); err == nil {
				return errModified // Created by something else since the plan.
			}
			return nil
		}))
	case WriteOut:
		r.written(oc, writeOut(r.outAbs, tf.rel, tf.data, 0o644))
	}
	return oc
}

// v2Native reports whether the run writes the v2-native platform (target
// v2, an XR scope other than legacy): the converter then also rewrites the
// objects around the Compositions.
func (r *runner) v2Native() bool {
	t, ok := r.o.Converter.(Twinner)
	return ok && !r.o.Phase1 && t.Twins(r.o.Target)
}

// v2ObjectsIn reports whether a file without Compositions goes through the
// converter anyway, in a v2-native run: it holds an object the v2-native
// target rewrites (EnvironmentConfig, Usage, ControllerConfig, a package
// manifest). A Configuration's crossplane.yaml is rewritten with the
// functions' wiring instead (wireScopes), which edits it too.
func (r *runner) v2ObjectsIn(f *tree.Scanned) bool {
	if !r.v2Native() || r.isWiredConfig(f.Rel) {
		return false
	}
	for _, d := range f.Docs {
		if isV2Object(d.APIVersion, d.Kind) {
			return true
		}
	}
	return false
}

// isV2Object reports whether the converter rewrites an object of this
// type for the v2-native target (convert/v2native/objects.go).
func isV2Object(apiVersion, kind string) bool {
	switch g := xp.Group(apiVersion); {
	case g == xp.GroupAPIExtensions:
		return kind == "EnvironmentConfig" || kind == "Usage"
	case g == xp.GroupPkg:
		return kind == "ControllerConfig" || kind == "Provider" || kind == "Function" || kind == "Configuration"
	case g == xp.GroupMetaPkg:
		return kind == "Configuration"
	}
	return false
}

// isWiredConfig reports whether rel is the crossplane.yaml of a package
// scope the run wires functions into.
func (r *runner) isWiredConfig(rel string) bool {
	if r.wiring == nil {
		return false
	}
	for _, ws := range r.wiring.scopes {
		if ws.config == rel {
			return true
		}
	}
	return false
}

// v2Rewrite returns data as the converter rewrites it for the v2-native
// target, with its findings.
func (r *runner) v2Rewrite(ctx context.Context, f *tree.Scanned, data []byte) ([]byte, []Diagnostic, error) {
	resp, err := r.o.Converter.Convert(ctx, ConvertRequest{Path: f.Rel, Data: data, Format: f.Format, Target: r.o.Target})
	if err != nil {
		return nil, nil, err
	}
	return resp.Data, resp.Diagnostics, nil
}
