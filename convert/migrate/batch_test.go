package migrate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// A txtarCase runs the migrator over the mini-repository in/ of an archive
// and compares the tree afterwards with want/ (in/ when absent), the copy
// under --out with out/, and the summary with the "summary" file.
type txtarCase struct {
	reason  string
	archive string
	// opts adjusts the options; root is the tree, tmp a scratch directory.
	opts func(o *Options, root, tmp string)
	// setup prepares what a txtar cannot hold: symlinks, modes, hooks.
	setup func(t *testing.T, root string, h *hooks)
	// wantErr is the error Run must return.
	wantErr error
	// check inspects the result further.
	check func(t *testing.T, root string, res *Result, h *hooks)
	// noGolden skips the comparisons with the archive (for tests that
	// only borrow its tree).
	noGolden bool
}

// hooks let a case act during a run.
type hooks struct {
	conv     *fakeConverter
	verifier *fakeVerifier
	cancel   context.CancelFunc
	progress *recordingProgress
}

// recordingProgress records the calls, and runs onScanned/onDone.
type recordingProgress struct {
	mu        sync.Mutex
	done      []string
	total     int
	finished  bool
	onScanned func()
	onDone    func(r *FileResult)
}

func (p *recordingProgress) Scanned(total int) {
	p.total = total
	if p.onScanned != nil {
		p.onScanned()
	}
}
func (p *recordingProgress) Started(string) {}
func (p *recordingProgress) Done(r *FileResult, _, _ int) {
	p.mu.Lock()
	p.done = append(p.done, r.Path)
	p.mu.Unlock()
	if p.onDone != nil {
		p.onDone(r)
	}
}
func (p *recordingProgress) Finished(*Result) { p.finished = true }

func runTxtarCase(t *testing.T, tc txtarCase) (*Result, string) {
	t.Helper()
	path := filepath.Join("testdata", "txtar", tc.archive)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a := parseTxtar(string(raw))
	tmp := t.TempDir()
	root := filepath.Join(tmp, "repo")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, a.section("in"))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := &hooks{conv: &fakeConverter{}, verifier: &fakeVerifier{}, cancel: cancel, progress: &recordingProgress{}}
	if tc.setup != nil {
		tc.setup(t, root, h)
	}
	o := Options{Root: root, Converter: h.conv, Verifier: h.verifier, Verify: true, Jobs: 4, Progress: h.progress}
	if tc.opts != nil {
		tc.opts(&o, root, tmp)
	}
	res, err := Run(ctx, o)
	if diff := cmp.Diff(tc.wantErr, err, cmpopts.EquateErrors()); diff != "" {
		t.Fatalf("%s\nRun(...): -want error, +got error:\n%s", tc.reason, diff)
	}
	if res == nil {
		return nil, ""
	}
	var sum bytes.Buffer
	if err := WriteSummary(&sum, res); err != nil {
		t.Fatal(err)
	}
	var diffs strings.Builder
	for _, f := range res.Files {
		diffs.WriteString(f.Diff)
	}

	gotTree := readTree(t, root)
	var gotOut map[string]string
	if o.Write == WriteOut {
		gotOut = readTree(t, o.Out)
	}

	if tc.noGolden {
		return res, sum.String()
	}
	if testutil.Update() {
		var files []txtarFile
		for _, f := range a.Files {
			if strings.HasPrefix(f.Name, "in/") {
				files = append(files, f)
			}
		}
		in := a.section("in")
		if !cmp.Equal(in, gotTree) {
			for _, k := range sortedKeys(gotTree) {
				files = append(files, txtarFile{Name: "want/" + k, Data: gotTree[k]})
			}
		}
		for _, k := range sortedKeys(gotOut) {
			files = append(files, txtarFile{Name: "out/" + k, Data: gotOut[k]})
		}
		files = append(files, txtarFile{Name: "summary", Data: sum.String()})
		if diffs.Len() > 0 {
			files = append(files, txtarFile{Name: "diff", Data: diffs.String()})
		}
		a.Files = files
		if err := os.WriteFile(path, []byte(formatTxtar(a)), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	want := a.section("want")
	if len(want) == 0 {
		want = a.section("in")
	}
	if diff := cmp.Diff(want, gotTree); diff != "" {
		t.Errorf("%s\nRun(...): tree after the run: -want, +got:\n%s", tc.reason, diff)
	}
	if o.Write == WriteOut {
		if diff := cmp.Diff(a.section("out"), gotOut); diff != "" {
			t.Errorf("%s\nRun(...): --out tree: -want, +got:\n%s", tc.reason, diff)
		}
	}
	wantSum, _ := a.file("summary")
	if diff := cmp.Diff(wantSum, sum.String()); diff != "" {
		t.Errorf("%s\nWriteSummary(...): -want, +got:\n%s", tc.reason, diff)
	}
	wantDiff, _ := a.file("diff")
	if diff := cmp.Diff(wantDiff, diffs.String()); diff != "" {
		t.Errorf("%s\nRun(...): diffs: -want, +got:\n%s", tc.reason, diff)
	}
	if tc.check != nil {
		tc.check(t, root, res, h)
	}
	return res, sum.String()
}

// leftovers lists temporary files the migrator may have left.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for p := range readTree(t, dir) {
		if strings.Contains(p, ".xpmigrate-") {
			out = append(out, p)
		}
	}
	return out
}

func TestMigrateTxtar(t *testing.T) {
	cases := map[string]txtarCase{
		"Basic": {
			reason:  "Legacy Compositions are converted in place and verified with the XR, claim and compositionRef examples that select them; everything else is untouched.",
			archive: "basic.txtar",
			check: func(t *testing.T, _ string, res *Result, h *hooks) {
				want := []string{
					"buckets-aws: examples/claim-aws.yaml#1,examples/xr.yaml#1",
					"buckets-gcp: examples/ref-gcp.json#1,examples/xr.yaml#1",
				}
				if diff := cmp.Diff(want, h.verifier.sortedCalls()); diff != "" {
					t.Errorf("Verify calls: -want, +got:\n%s", diff)
				}
			},
		},
		"TestFixturesAreNotSamples": {
			reason:  "kuttl and chainsaw fixtures and objects without a name are not samples: the Composition is verified with its example only.",
			archive: "fixtures.txtar",
			check: func(t *testing.T, _ string, _ *Result, h *hooks) {
				want := []string{"buckets: examples/xr.yaml#1"}
				if diff := cmp.Diff(want, h.verifier.sortedCalls()); diff != "" {
					t.Errorf("Verify calls: -want, +got:\n%s", diff)
				}
			},
		},
		"Skipped": {
			reason:  "Helm templates that are not YAML, ytt files and unparseable files are reported and never touched; valid YAML with {{ in a block scalar is read.",
			archive: "skipped.txtar",
			check: func(t *testing.T, _ string, res *Result, h *hooks) {
				if diff := cmp.Diff([]string{"templating.yaml"}, h.conv.calls); diff != "" {
					t.Errorf("Convert calls: -want, +got:\n%s", diff)
				}
			},
		},
		"GitignoreIncludeExclude": {
			reason:  "Ignored, excluded and not-included files are not migrated.",
			archive: "gitignore.txtar",
			opts: func(o *Options, _, _ string) {
				o.Exclude = []string{"apis/excluded/"}
				o.Include = []string{"apis/**", "build/**"}
			},
		},
		"ReadOnly": {
			reason:  "A read-only file that needs converting is reported as failed and not replaced.",
			archive: "readonly.txtar",
			setup: func(t *testing.T, root string, _ *hooks) {
				for _, f := range []string{"a-readonly.yaml", "b-readonly-xrd.yaml"} {
					if err := os.Chmod(filepath.Join(root, f), 0o444); err != nil {
						t.Fatal(err)
					}
				}
			},
			check: func(t *testing.T, root string, res *Result, _ *hooks) {
				fi, err := os.Stat(filepath.Join(root, "c-writable.yaml"))
				if err != nil {
					t.Fatal(err)
				}
				if got := fi.Mode().Perm(); got != 0o644 {
					t.Errorf("mode of the converted file: want 0644, got %v", got)
				}
				if !res.Failed() {
					t.Errorf("Result.Failed(): want true")
				}
			},
		},
		"Symlinks": {
			reason:  "Symlink loops, symlinks out of the tree and broken ones are reported; a symlinked directory is walked and its files converted once.",
			archive: "symlinks.txtar",
			setup: func(t *testing.T, root string, _ *hooks) {
				outside := filepath.Join(filepath.Dir(root), "outside.yaml")
				if err := os.WriteFile(outside, []byte("apiVersion: v1\nkind: ConfigMap\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				for link, target := range map[string]string{
					"apis/loop":       "..",
					"linked":          "apis",
					"outside.yaml":    "../outside.yaml",
					"broken.yaml":     "missing.yaml",
					"apis/alias.yaml": "composition.yaml",
				} {
					if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
						t.Fatal(err)
					}
				}
			},
			check: func(t *testing.T, root string, _ *Result, h *hooks) {
				if diff := cmp.Diff([]string{"apis/composition.yaml"}, h.conv.calls); diff != "" {
					t.Errorf("Convert calls: -want, +got:\n%s", diff)
				}
			},
		},
		"Vanish": {
			reason:  "A file deleted after the scan, or while it is converted, is reported and not recreated.",
			archive: "vanish.txtar",
			opts:    func(o *Options, _, _ string) { o.Jobs = 1 },
			setup: func(t *testing.T, root string, h *hooks) {
				h.progress.onScanned = func() {
					if err := os.Remove(filepath.Join(root, "b-gone-after-scan.yaml")); err != nil {
						t.Error(err)
					}
				}
				h.conv.hook = func(p string) {
					if p == "c-gone-during-convert.yaml" {
						if err := os.Remove(filepath.Join(root, p)); err != nil {
							t.Error(err)
						}
					}
				}
			},
		},
		"CtrlC": {
			reason:  "A cancellation (here while the second file is being converted) stops the run: that file is not written, no other file starts, every file is old or new, and no temporary file is left.",
			archive: "cancel.txtar",
			opts:    func(o *Options, _, _ string) { o.Jobs = 1 },
			wantErr: context.Canceled,
			setup: func(t *testing.T, _ string, h *hooks) {
				h.conv.hook = func(p string) {
					if p == "b.yaml" {
						h.cancel()
					}
				}
			},
			check: func(t *testing.T, root string, res *Result, _ *hooks) {
				if !res.Cancelled {
					t.Errorf("Result.Cancelled: want true")
				}
				if got := leftovers(t, root); len(got) > 0 {
					t.Errorf("temporary files left: %v", got)
				}
			},
		},
		"Check": {
			reason:  "--check writes nothing and reports the change, with its diff.",
			archive: "check.txtar",
			opts: func(o *Options, _, _ string) {
				o.Write, o.Check, o.Diff = WriteNone, true, true
			},
			check: func(t *testing.T, _ string, res *Result, _ *hooks) {
				if !res.Changed() {
					t.Errorf("Result.Changed(): want true")
				}
			},
		},
		"CheckClean": {
			reason:  "--check on a migrated tree: nothing would change.",
			archive: "check-clean.txtar",
			opts:    func(o *Options, _, _ string) { o.Write, o.Check = WriteNone, true },
			check: func(t *testing.T, _ string, res *Result, _ *hooks) {
				if res.Changed() {
					t.Errorf("Result.Changed(): want false")
				}
			},
		},
		"OutTree": {
			reason:  "--out writes a converted copy of the tree in the same layout and leaves the tree alone.",
			archive: "out.txtar",
			opts: func(o *Options, _, tmp string) {
				o.Write, o.Out = WriteOut, filepath.Join(tmp, "out")
			},
		},
		"Kustomize": {
			reason:  "JSON 6902 patches into a converted Composition's template bases are rewritten to the pipeline input; a strategic-merge patch into spec.resources is reported; patch files holding Composition fragments are skipped.",
			archive: "kustomize.txtar",
		},
		"Findings": {
			reason:  "v2-readiness findings are reported over the files' final content.",
			archive: "findings.txtar",
		},
		"Phase1": {
			reason:  "--phase1 names unnamed templates, keeps mode Resources and verifies nothing.",
			archive: "phase1.txtar",
			opts:    func(o *Options, _, _ string) { o.Phase1 = true },
			check: func(t *testing.T, _ string, _ *Result, h *hooks) {
				if got := h.verifier.sortedCalls(); len(got) > 0 {
					t.Errorf("Verify calls: want none, got %v", got)
				}
			},
		},
		"Failures": {
			reason:  "Refused Compositions and files the converter cannot process are left alone and reported; without document statuses the migrator reads the output.",
			archive: "failures.txtar",
			setup:   func(_ *testing.T, _ string, h *hooks) { h.conv.noStatus = true },
			check: func(t *testing.T, _ string, res *Result, _ *hooks) {
				if !res.Failed() {
					t.Errorf("Result.Failed(): want true")
				}
			},
		},
		"Verify": {
			reason:  "Every verdict is reported, with gap codes counted; claims match through the XRD.",
			archive: "verify.txtar",
			opts:    func(o *Options, _, _ string) { o.Synthesize = 1 },
			check: func(t *testing.T, _ string, res *Result, h *hooks) {
				want := []string{
					"broken-render: examples/claim.yaml#1",
					"differs-size: examples/claim.yaml#1",
					"equivalent: examples/claim.yaml#1,examples/list.yaml#1.1",
					"gap-join: examples/claim.yaml#1",
					"lonely: ",
				}
				if diff := cmp.Diff(want, h.verifier.sortedCalls()); diff != "" {
					t.Errorf("Verify calls: -want, +got:\n%s", diff)
				}
				if !res.HasDifferences() {
					t.Errorf("Result.HasDifferences(): want true")
				}
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			runTxtarCase(t, tc)
		})
	}
}
