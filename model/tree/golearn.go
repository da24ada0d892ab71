package tree

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/sjwhitworth/golearn/base"
)

var _ base.Classifier = (*GolearnClassifier)(nil)

// GolearnClassifier is a CART tree behind golearn's base.Classifier
// interface (golearn v0.0.0-20221228163002-74ae077eafb2), so that golearn
// code can train it on a base.FixedDataGrid and feed its predictions to
// golearn's evaluation package. The zero value fits with the zero Params (a
// full tree).
//
// Attributes. The data must have exactly one class attribute: categorical
// (its values are the classes), float (its distinct values are, written
// with strconv's shortest formatting) or binary. Every other attribute is a
// feature: float attributes by value, binary ones as 0 or 1, categorical
// ones by their category index (an ordinal encoding, which CART's
// thresholds then cut into ranges of indices). Predict finds the features
// in its input by attribute equality (name and type), so the columns may be
// in any order.
type GolearnClassifier struct {
	// Params are the parameters of Fit.
	Params Params
	// Weights, when not nil, holds one sample weight per row of the grid
	// given to Fit.
	Weights []float64
	// Tree is the fitted tree; nil before Fit or Load.
	Tree *Classifier

	classAttr    base.Attribute
	featureAttrs []base.Attribute
}

// Fit trains the tree on data. It returns an error wrapping ErrAttribute
// when data has not exactly one class attribute, and Fit's errors.
func (g *GolearnClassifier) Fit(data base.FixedDataGrid) error {
	classAttrs := data.AllClassAttributes()
	if len(classAttrs) != 1 {
		return fmt.Errorf("%w: %d class attributes, want 1", ErrAttribute, len(classAttrs))
	}
	classAttr := classAttrs[0]
	featureAttrs := base.AttributeDifferenceReferences(data.AllAttributes(), classAttrs)
	if len(featureAttrs) == 0 {
		return fmt.Errorf("%w: no feature attributes", ErrAttribute)
	}
	featureNames := make([]string, len(featureAttrs))
	for f, a := range featureAttrs {
		featureNames[f] = a.GetName()
	}
	_, rows := data.Size()
	nf := len(featureAttrs)
	x := make([]float64, rows*nf)
	rawClass := make([]float64, rows)
	specs := base.ResolveAttributes(data, append(slices.Clone(featureAttrs), classAttr))
	err := data.MapOverRows(specs, func(row [][]byte, r int) (bool, error) {
		for f, a := range featureAttrs {
			x[r*nf+f] = attributeValue(a, row[f])
		}
		rawClass[r] = attributeValue(classAttr, row[nf])
		return true, nil
	})
	if err != nil {
		return err
	}
	classNames, y, err := classLabels(classAttr, rawClass)
	if err != nil {
		return err
	}
	tree, err := FitFlat(x, nf, y, g.Weights, classNames, featureNames, g.Params)
	if err != nil {
		return err
	}
	g.Tree, g.classAttr, g.featureAttrs = tree, classAttr, featureAttrs
	return nil
}

// attributeValue is the number that stands for a system value of a.
func attributeValue(a base.Attribute, raw []byte) float64 {
	switch a.(type) {
	case *base.FloatAttribute:
		return base.UnpackBytesToFloat(raw)
	case *base.BinaryAttribute:
		if raw[0] > 0 {
			return 1
		}
		return 0
	default: // categorical: the category index
		return float64(base.UnpackBytesToU64(raw))
	}
}

// classLabels turns the class column into class names and indices.
func classLabels(a base.Attribute, raw []float64) ([]string, []int, error) {
	y := make([]int, len(raw))
	switch a := a.(type) {
	case *base.CategoricalAttribute:
		for r, v := range raw {
			y[r] = int(v)
		}
		return slices.Clone(a.GetValues()), y, nil
	case *base.BinaryAttribute:
		for r, v := range raw {
			y[r] = int(v)
		}
		return []string{"0", "1"}, y, nil
	}
	for r, v := range raw {
		if math.IsNaN(v) {
			return nil, nil, fmt.Errorf("%w: row %d has class NaN", ErrClass, r)
		}
	}
	values := slices.Clone(raw)
	slices.Sort(values)
	values = slices.Compact(values)
	names := make([]string, len(values))
	for k, v := range values {
		names[k] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	for r, v := range raw {
		y[r], _ = slices.BinarySearch(values, v)
	}
	return names, y, nil
}

// Predict returns a grid with one class attribute, the prediction for every
// row of data. When data has a class attribute the grid uses it (as
// golearn's classifiers do, so that evaluation.GetConfusionMatrix can
// compare the two); otherwise the one seen by Fit. It returns an error
// wrapping ErrNotFitted before Fit, and ErrAttribute when a feature seen by
// Fit is missing from data.
func (g *GolearnClassifier) Predict(data base.FixedDataGrid) (base.FixedDataGrid, error) {
	if g.Tree == nil || g.classAttr == nil {
		return nil, ErrNotFitted
	}
	specs := make([]base.AttributeSpec, len(g.featureAttrs))
	for f, a := range g.featureAttrs {
		spec, err := data.GetAttribute(a)
		if err != nil {
			return nil, fmt.Errorf("%w: feature %q: %w", ErrAttribute, a.GetName(), err)
		}
		specs[f] = spec
	}
	_, rows := data.Size()
	var out base.UpdatableDataGrid
	if len(data.AllClassAttributes()) == 1 {
		out = base.GeneratePredictionVector(data)
	} else {
		grid := base.NewDenseInstances()
		grid.AddAttribute(g.classAttr)
		if err := grid.AddClassAttribute(g.classAttr); err != nil {
			return nil, err
		}
		if err := grid.Extend(rows); err != nil {
			return nil, err
		}
		out = grid
	}
	outAttr := out.AllClassAttributes()[0]
	outSpec, err := out.GetAttribute(outAttr)
	if err != nil {
		return nil, err
	}
	sysValues := make([][]byte, len(g.Tree.Classes))
	for k, name := range g.Tree.Classes {
		sysValues[k] = outAttr.GetSysValFromString(name)
	}
	x := make([]float64, len(g.featureAttrs))
	err = data.MapOverRows(specs, func(row [][]byte, r int) (bool, error) {
		for f, a := range g.featureAttrs {
			x[f] = attributeValue(a, row[f])
		}
		out.Set(outSpec, r, sysValues[g.Tree.Predict(x)])
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// String describes the classifier and renders the tree.
func (g *GolearnClassifier) String() string {
	if g.Tree == nil {
		return "tree.GolearnClassifier (not fitted)"
	}
	return fmt.Sprintf("tree.GolearnClassifier (CART, %d nodes, depth %d)\n%s", len(g.Tree.Nodes), g.Tree.Depth(), g.Tree)
}

// GetMetadata describes the classifier for golearn's serialisation and
// ensembles.
func (g *GolearnClassifier) GetMetadata() base.ClassifierMetadataV1 {
	p := g.Params
	if g.Tree != nil {
		p = g.Tree.Params
	}
	return base.ClassifierMetadataV1{
		FormatVersion:     1,
		ClassifierName:    "graphperf/model/tree.CART",
		ClassifierVersion: strconv.Itoa(JSONVersion),
		ClassifierMetadata: map[string]any{
			"max_depth":             p.MaxDepth,
			"min_samples_leaf":      p.MinSamplesLeaf,
			"min_samples_split":     p.MinSamplesSplit,
			"min_impurity_decrease": p.MinImpurityDecrease,
			"max_features":          p.MaxFeatures,
			"seed":                  strconv.FormatUint(p.Seed, 10),
		},
	}
}

// Save writes the classifier to a golearn model file (a gzipped tar).
func (g *GolearnClassifier) Save(path string) (err error) {
	w, err := base.CreateSerializedClassifierStub(path, g.GetMetadata())
	if err != nil {
		return err
	}
	defer func() {
		if cerr := w.Close(); err == nil {
			err = cerr
		}
	}()
	return g.SaveWithPrefix(w, "")
}

// SaveWithPrefix writes the tree (as MarshalJSON writes it) and the
// attributes under prefix, for golearn's ensembles.
func (g *GolearnClassifier) SaveWithPrefix(w *base.ClassifierSerializer, prefix string) error {
	if g.Tree == nil {
		return ErrNotFitted
	}
	data, err := g.Tree.MarshalJSON()
	if err != nil {
		return err
	}
	if err := w.WriteBytesForKey(w.Prefix(prefix, "tree"), data); err != nil {
		return err
	}
	if err := w.WriteAttributeForKey(w.Prefix(prefix, "class_attribute"), g.classAttr); err != nil {
		return err
	}
	return w.WriteAttributesForKey(w.Prefix(prefix, "feature_attributes"), g.featureAttrs)
}

// Load reads a classifier written by Save.
func (g *GolearnClassifier) Load(path string) error {
	r, err := base.ReadSerializedClassifierStub(path)
	if err != nil {
		return err
	}
	defer r.Close()
	return g.LoadWithPrefix(r, "")
}

// LoadWithPrefix reads a classifier written by SaveWithPrefix.
func (g *GolearnClassifier) LoadWithPrefix(r *base.ClassifierDeserializer, prefix string) error {
	data, err := r.GetBytesForKey(r.Prefix(prefix, "tree"))
	if err != nil {
		return err
	}
	tree := new(Classifier)
	if err := tree.UnmarshalJSON(data); err != nil {
		return err
	}
	classAttr, err := r.GetAttributeForKey(r.Prefix(prefix, "class_attribute"))
	if err != nil {
		return err
	}
	featureAttrs, err := r.GetAttributesForKey(r.Prefix(prefix, "feature_attributes"))
	if err != nil {
		return err
	}
	if len(featureAttrs) != len(tree.Features) {
		return fmt.Errorf("%w: %d feature attributes for %d features", ErrFormat, len(featureAttrs), len(tree.Features))
	}
	g.Tree, g.Params, g.classAttr, g.featureAttrs = tree, tree.Params, classAttr, featureAttrs
	return nil
}
