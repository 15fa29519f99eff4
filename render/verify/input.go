package verify

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
	"github.com/xpmigrate/xpmigrate/internal/samples"
	"github.com/xpmigrate/xpmigrate/render/engine"
)

// Sources name the files `xpmigrate verify` reads. Only Legacy is
// required.
type Sources struct {
	// Legacy is the legacy Composition's file (with FromBase: the
	// converted one's); Converted the converted Composition's, "" to
	// convert on the fly.
	Legacy, Converted string
	// XR is a file or directory of samples; "" looks for examples beside
	// the Composition (FindExamples). Objects of other kinds beside the
	// samples are extra resources.
	XR string
	// Observed and Extra are files or directories of observed composed
	// resources and other cluster objects.
	Observed, Extra string
	// XRD is the CompositeResourceDefinition's file; "" looks for it
	// beside the Composition when claims, Synthesize or the on-the-fly
	// conversion (which reads its schema) need it.
	XRD string
	// Synthesize generates this many samples from the XRD's schema.
	Synthesize int
	// FromBase, when set, reads the legacy Composition from elsewhere (a
	// git revision): given Legacy's path and content, the converted
	// Composition, it returns the legacy Composition and the converted one.
	FromBase func(ctx context.Context, path string, data []byte) (legacy, converted Document, err error)
	// FS is the file system, rooted at /, that examples and the XRD are
	// looked for in; nil reads the machine's regular files.
	FS fs.FS
}

// An Input is what Verify is given, read from Sources.
type Input struct {
	Legacy, Converted Document
	Samples           []Sample
	Observed, Extra   []map[string]any
	XRD               map[string]any
	// Skipped are the documents of a sample's kind that are not samples.
	Skipped []SkippedSample
}

// Load reads the input the sources name. Every error is invalid input
// (errkind).
func Load(ctx context.Context, s Sources) (*Input, error) {
	in, err := load(ctx, s)
	if err != nil {
		return nil, errkind.InvalidInput(err)
	}
	return in, nil
}

// LoadCompositions reads only the two Compositions of s (Legacy, FromBase
// and Converted), as Load does; every error is invalid input.
func LoadCompositions(ctx context.Context, s Sources) (legacy, converted Document, err error) {
	if legacy, converted, err = compositions(ctx, s); err != nil {
		return Document{}, Document{}, errkind.InvalidInput(err)
	}
	return legacy, converted, nil
}

func compositions(ctx context.Context, s Sources) (legacy, converted Document, err error) {
	b, err := manifest.ReadFile(s.Legacy)
	if err != nil {
		return legacy, converted, errkind.InvalidInput(errors.Wrapf(err, "cannot read legacy composition %q", s.Legacy))
	}
	legacy = Document{Path: s.Legacy, Data: b}
	if s.FromBase != nil {
		// The argument is the conversion; its legacy form is elsewhere.
		if legacy, converted, err = s.FromBase(ctx, s.Legacy, b); err != nil {
			return legacy, converted, err
		}
	}
	if s.Converted != "" {
		b, err := manifest.ReadFile(s.Converted)
		if err != nil {
			return legacy, converted, errkind.InvalidInput(errors.Wrapf(err, "cannot read converted composition %q", s.Converted))
		}
		converted = Document{Path: s.Converted, Data: b}
	}
	return legacy, converted, nil
}

func load(ctx context.Context, s Sources) (*Input, error) {
	in := &Input{}
	var err error
	if in.Legacy, in.Converted, err = compositions(ctx, s); err != nil {
		return nil, err
	}
	if s.Observed != "" {
		if in.Observed, err = engine.LoadAll(s.Observed, "observed composed resources"); err != nil {
			return nil, err
		}
	}
	if s.XRD != "" {
		if in.XRD, err = engine.LoadOne(s.XRD, "XRD"); err != nil {
			return nil, err
		}
	}
	fsys := s.FS
	if fsys == nil {
		// Regular files only: a FIFO beside the Composition is not waited on.
		fsys = regularfile.FS("/")
	}

	// Examples beside the Composition when no sample source is given, and
	// its XRD when none was given and claims or Synthesize need one.
	abs, err := filepath.Abs(s.Legacy)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot resolve %q", s.Legacy)
	}
	dir := strings.TrimPrefix(filepath.ToSlash(filepath.Dir(abs)), "/")

	var extraBesideSamples []manifest.Document
	if s.XR != "" {
		docs, err := manifest.LoadPath(s.XR)
		if err != nil {
			return nil, errors.Wrap(err, "cannot load sample XRs")
		}
		// The on-the-fly conversion reads the XRD too, as migrate does.
		if in.XRD == nil && (s.Synthesize > 0 || len(in.Converted.Data) == 0 || !onlyKinds(docs, sampleKinds(in.Legacy, nil))) {
			if in.XRD, err = FindXRD(fsys, dir, in.Legacy); err != nil {
				return nil, err
			}
		}
		kinds := sampleKinds(in.Legacy, in.XRD)
		for _, d := range docs {
			k, _ := d.Object["kind"].(string)
			if !kinds[k] {
				// Secrets and other objects next to the samples belong to
				// the cluster.
				extraBesideSamples = append(extraBesideSamples, d)
				continue
			}
			if reason := samples.NotASample(d.Object); reason != "" {
				in.Skipped = append(in.Skipped, SkippedSample{Path: fmt.Sprintf("%s#%d", d.Source, d.Index+1), Reason: reason})
				continue
			}
			in.Samples = append(in.Samples, Sample{
				Name:   fmt.Sprintf("%s#%d", d.Source, d.Index+1),
				Source: d.Source,
				Line:   d.Line,
				XR:     d.Object,
			})
		}
		if len(in.Samples) == 0 {
			return nil, errkind.InvalidInputf("no XR or claim of the composition's kind in %q", s.XR)
		}
	} else {
		ex, err := FindExamples(fsys, dir, in.Legacy, in.XRD)
		if err != nil {
			return nil, err
		}
		in.XRD, in.Samples, in.Skipped = ex.XRD, ex.Samples, ex.Skipped
	}
	if in.Extra, err = engine.LoadExtra(s.Extra, extraBesideSamples); err != nil {
		return nil, err
	}
	if s.Synthesize > 0 {
		syn, err := Synthesize(in.XRD, in.Legacy, s.Synthesize)
		if err != nil {
			return nil, err
		}
		in.Samples = append(in.Samples, syn...)
	}
	return in, nil
}

// onlyKinds reports whether every document is of one of kinds.
func onlyKinds(docs []manifest.Document, kinds map[string]bool) bool {
	for _, d := range docs {
		if k, _ := d.Object["kind"].(string); !kinds[k] {
			return false
		}
	}
	return true
}

// sampleKinds are the kinds a sample may have: the Composition's XR kind,
// and the XRD's claim kind.
func sampleKinds(legacy Document, xrd map[string]any) map[string]bool {
	out := map[string]bool{}
	for _, d := range manifest.Split(legacy.Data) {
		o, err := d.Decode()
		if err != nil || o == nil || o["kind"] != "Composition" {
			continue
		}
		if k := jsonobj.String(o, "spec", "compositeTypeRef", "kind"); k != "" {
			out[k] = true
		}
		break
	}
	if k := jsonobj.String(xrd, "spec", "claimNames", "kind"); k != "" {
		out[k] = true
	}
	return out
}
