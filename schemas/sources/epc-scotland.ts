/**
 * The Scottish EPC Register's domestic certificates extract (Scottish Government /
 * Energy Saving Trust, quarterly on statistics.gov.scot: "Domestic Energy Performance
 * Certificates", files `D_EPC_data_*.csv`). Its own columns, not the England and Wales
 * ones: no LMK_KEY and no ADDRESS3; `POST_TOWN` for POSTTOWN; `WALL_*` for WALLS_*; the
 * UPRN is `OSG_REFERENCE_NUMBER` (the One Scotland Gazetteer's, which is the OS UPRN);
 * `BUILDING_REFERENCE_NUMBER` is the register's own property id. Each release carries a
 * second header row of descriptive names ("Date of Certificate", "Total floor area (m²)"),
 * before or after the column names depending on the release. No real file is in
 * ../shared/data/raw; where this layout comes from is in docs/sources/epc-scotland.md ("Where the layout comes from").
 *
 * The column order below is the synthetic region's (the reader maps columns by name):
 * the names are the published ones; their order is not evidenced.
 */
export const SCOTTISH_EPC_COLUMNS = [
  ['BUILDING_REFERENCE_NUMBER', 'Property_UPRN'],
  ['OSG_REFERENCE_NUMBER', 'OSG_UPRN'],
  ['REPORT_REFERENCE_NUMBER', 'Report Reference Number'],
  ['ADDRESS1', 'Address 1'],
  ['ADDRESS2', 'Address 2'],
  ['POST_TOWN', 'Post Town'],
  ['POSTCODE', 'Postcode'],
  ['INSPECTION_DATE', 'Date of Assessment'],
  ['TYPE_OF_ASSESSMENT', 'Type of Assessment'],
  ['LODGEMENT_DATE', 'Date of Certificate'],
  ['TRANSACTION_TYPE', 'Transaction Type'],
  ['ENERGY_CONSUMPTION_CURRENT', 'Primary Energy Indicator (kWh/m²/year)'],
  ['TOTAL_FLOOR_AREA', 'Total floor area (m²)'],
  ['CURRENT_ENERGY_EFFICIENCY', 'Current energy efficiency rating'],
  ['CURRENT_ENERGY_RATING', 'Current energy efficiency rating band'],
  ['POTENTIAL_ENERGY_EFFICIENCY', 'Potential Energy Efficiency Rating'],
  ['POTENTIAL_ENERGY_RATING', 'Potential energy efficiency rating band'],
  ['CURRENT_ENVIRONMENTAL_RATING', 'Current Environmental Impact Rating'],
  ['POTENTIAL_ENVIRONMENTAL_RATING', 'Potential Environmental Impact Rating'],
  ['CO2_EMISSIONS_CURRENT', 'Current Emissions (T.CO2/yr)'],
  ['CO2_EMISS_CURR_PER_FLOOR_AREA', 'CO2 Emissions Current Per Floor Area (kg.CO2/m²/yr)'],
  ['PROPERTY_TYPE', 'Property Type'],
  ['BUILT_FORM', 'Built Form'],
  ['MAINS_GAS_FLAG', 'Main Gas'],
  ['FLOOR_LEVEL', 'Flat Level'],
  ['NUMBER_HABITABLE_ROOMS', 'Habitable Room Count'],
  ['NUMBER_HEATED_ROOMS', 'Heated Room Count'],
  ['CONSTRUCTION_AGE_BAND', 'Part 1 Construction Age Band'],
  ['MAIN_FUEL', 'Main Heating 1 Fuel Type'],
  ['MAINHEAT_DESCRIPTION', 'Main Heating 1 Category'],
  ['WALL_DESCRIPTION', 'Walls Description'],
  ['WALL_ENERGY_EFF', 'Walls Energy Efficiency'],
  ['HEAT_LOSS_CORRIDOOR', 'Heat Loss Corridor'],
  ['TENURE', 'Tenure'],
  ['LOCAL_AUTHORITY_LABEL', 'Local Authority'],
  ['DATA_ZONE', 'Data Zone'],
] as const;

export type ScottishEpcColumn = (typeof SCOTTISH_EPC_COLUMNS)[number][0];

/** Column names, in the synthetic region's order. */
export const SCOTTISH_EPC_HEADER: readonly ScottishEpcColumn[] = SCOTTISH_EPC_COLUMNS.map(([name]) => name);

/** The descriptive header row, column for column. */
export const SCOTTISH_EPC_LABELS: readonly string[] = SCOTTISH_EPC_COLUMNS.map(([, label]) => label);
