-- The grid cell of a point as lib/geo/grid-cells.ts numbers it (cellKeyOf): local metres about
-- 54°N (lib/geo/points.ts localMetres, the same operations in the same order), cells of cell_m
-- metres, key = (row + 2^20) × 2^21 + (column + 2^20). cos(54°) is JavaScript's double, parsed
-- from its shortest text (a DOUBLE cast of a string rounds correctly). The writer checks every
-- row's key against JavaScript's. Null without a position. Not TEMP: the writer streams its
-- query on another connection of the build's database.
CREATE OR REPLACE MACRO cell_key(lat, lng, cell_m) AS
  (floor(lat::DOUBLE * 110540::DOUBLE / cell_m::DOUBLE) + 1048576::DOUBLE) * 2097152::DOUBLE
  + (floor(lng::DOUBLE * 111320::DOUBLE * '0.5877852522924731'::DOUBLE / cell_m::DOUBLE) + 1048576::DOUBLE);
