%%matrixmarket MATRIX Coordinate real Symmetric
% Figure 2 as an undirected graph, lower triangle, with weights
%
6 6 6
2 1 0.5
5 1 1e3
3 2 -2
4 2 7
5 2 .25
6 5 1
