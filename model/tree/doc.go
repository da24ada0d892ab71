// Package tree implements CART classification trees (Breiman, Friedman,
// Olshen and Stone, Classification and Regression Trees, 1984) with Gini
// impurity, sample weights, Gini importances and a flat node array for fast
// prediction, as seed 004 ch. 7 uses them to pick the fastest BFS
// implementation for every level.
//
// # The model of seed 004 ch. 7
//
// Seed 004 §7.2 trains a binary decision tree that maps the properties of a
// graph and of one BFS level (graph size, frontier size, discovered
// vertices, the five-number summary, mean and standard deviation of the
// degrees) to the fastest implementation for that level, and §7.3 switches
// implementations at run time from its predictions ("Mix-and-Match"). The
// thesis used scikit-learn's CART; Fit follows scikit-learn's
// DecisionTreeClassifier: the split of every node minimises the weighted
// Gini impurity of the children,
//
//	G_t = 1 - sum_k (w_k/W_t)^2,   minimise  W_L G_L + W_R G_R,
//
// over every feature and every threshold midway between consecutive
// distinct values, with the same stopping rules (MaxDepth, MinSamplesLeaf,
// MinSamplesSplit, MinImpurityDecrease, MaxFeatures), and the same
// normalised Gini importances (Classifier.Importances). Sample weights let
// a level that takes milliseconds count for more than one that takes
// microseconds. Fit documents how ties between splits are broken, and
// Classifier how ties between classes in a node are.
//
// Differences from scikit-learn (1.2). scikit-learn converts X to float32
// and does not split between two values closer than 1e-7 (its
// FEATURE_THRESHOLD); Fit works on the float64 values as given and splits
// between any two distinct ones, so on data with very close or very large
// values its trees are a little different (deeper, with more nodes). Where
// scikit-learn breaks ties between equally good features by its random
// feature order, Fit takes the lowest feature index, and with MaxFeatures
// its random draws are its own. A node is pure when one class holds all its
// weight, counted exactly; scikit-learn tests its impurity against 2.2e-16,
// and its incremental sums can leave a pure node at 1e-16..1e-13 and split
// it. On integer features below 2^24 with sample weights the trees agree
// node by node up to these three differences (checked on 20000 rows of the
// synthetic level data at depth 10, with
// model/tree/testdata/sklearn_compare.py's data).
//
// # Prediction
//
// Seed 004 §7.3.1 measured 100-200 ns per prediction. Classifier.Predict
// walks a flat array of 24-byte nodes (feature, threshold, children,
// class) without allocating; the training statistics (NodeStats) live in a
// separate array so that they do not dilute the cache. WriteGo and WriteC
// emit the same array as Go source and as a C header with an inline
// predict function (for switching implementations inside CUDA host code);
// MarshalJSON and UnmarshalJSON store and load the whole tree, with the
// optional Training record of the data, split and seed it was trained on
// (seed 004 §3.3.3 keeps these with every model so that its training and
// validation sets can be rebuilt).
//
// # Regression
//
// FitBoost fits gradient-boosted regression trees for squared loss by the
// histogram method of LightGBM and scikit-learn's
// HistGradientBoostingRegressor (uint8 bins, best-first trees, the
// histogram subtraction trick), for predicting a level's log run time per
// implementation; Trees 1, LearningRate 1, MinLeaf 1 and unlimited leaves
// give a single variance-criterion CART tree. Regressor.Predict works on
// raw feature values (NaN goes left) without allocating; MarshalJSON,
// UnmarshalJSON and WriteC store and export the ensemble as the classifier.
//
// # golearn
//
// GolearnClassifier wraps Fit and Predict in golearn's base.Classifier
// interface, so golearn users can train on a base.FixedDataGrid and use
// golearn's evaluation helpers (confusion matrix, precision, recall) on the
// predictions.
package tree
