// Package portability implements Pennycook's performance portability
// metric, the efficiencies it averages, and seed 002's classification of
// platform specializations as fair, anti-social or illegal.
//
// Performance portability of an implementation a solving a problem p over
// a platform set H is the harmonic mean of its efficiencies (seed 002 §2.1,
// line 150, after Pennycook, Sewall and Lee, its reference [9]):
//
//	P(a, p, H) = |H| / sum_{i in H} 1 / e_i(a, p)   if a is supported on every i in H
//	           = 0                                   otherwise
//
// The efficiency e_i is one of (seed 002 line 152 and §2.1.1, §3.2.1):
//
//	application efficiency        e_i = T_i(b_i, p) / T_i(a, p)      (line 158)
//	programming-model efficiency  e_i = T_{i_a}(a, p) / T_i(a, p)     (line 333)
//	architectural efficiency      achieved / the platform's limit    (line 152)
//
// where b_i is the best known implementation on platform i and i_a the
// best programming model for the same application. PP computes the metric
// for one application; ReadCSV and ByApplication do it for a table of
// (application, platform, efficiency) rows. Classify sorts a
// specialization into seed 002's three classes from its effect on each
// platform.
package portability
