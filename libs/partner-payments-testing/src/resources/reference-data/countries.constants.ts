/**
 * The sandbox's country list for GET /v1/countries (evidence §8 [T2s Reference.cs][T3r §RefData]:
 * 250 entries keyed by `alpha3`, each with `subdivisions`). Built from our own data: the ISO 3166-1
 * code pairs below (249 assigned codes plus Kosovo's user-assigned XK/XKX, which makes 250), English
 * names from Node's ICU (Intl.DisplayNames), and subdivisions for the countries our tests and demos
 * use (US, CA, MX, CO); the others carry an empty list. The partner's subdivision code format is not
 * shown: we use the ISO 3166-2 suffix ("TX"), the form users' address_state takes.
 */
const CODE_PAIRS =
  'AD AND AE ARE AF AFG AG ATG AI AIA AL ALB AM ARM AO AGO AQ ATA AR ARG AS ASM AT AUT AU AUS AW ABW ' +
  'AX ALA AZ AZE BA BIH BB BRB BD BGD BE BEL BF BFA BG BGR BH BHR BI BDI BJ BEN BL BLM BM BMU BN BRN ' +
  'BO BOL BQ BES BR BRA BS BHS BT BTN BV BVT BW BWA BY BLR BZ BLZ CA CAN CC CCK CD COD CF CAF CG COG ' +
  'CH CHE CI CIV CK COK CL CHL CM CMR CN CHN CO COL CR CRI CU CUB CV CPV CW CUW CX CXR CY CYP CZ CZE ' +
  'DE DEU DJ DJI DK DNK DM DMA DO DOM DZ DZA EC ECU EE EST EG EGY EH ESH ER ERI ES ESP ET ETH FI FIN ' +
  'FJ FJI FK FLK FM FSM FO FRO FR FRA GA GAB GB GBR GD GRD GE GEO GF GUF GG GGY GH GHA GI GIB GL GRL ' +
  'GM GMB GN GIN GP GLP GQ GNQ GR GRC GS SGS GT GTM GU GUM GW GNB GY GUY HK HKG HM HMD HN HND HR HRV ' +
  'HT HTI HU HUN ID IDN IE IRL IL ISR IM IMN IN IND IO IOT IQ IRQ IR IRN IS ISL IT ITA JE JEY JM JAM ' +
  'JO JOR JP JPN KE KEN KG KGZ KH KHM KI KIR KM COM KN KNA KP PRK KR KOR KW KWT KY CYM KZ KAZ LA LAO ' +
  'LB LBN LC LCA LI LIE LK LKA LR LBR LS LSO LT LTU LU LUX LV LVA LY LBY MA MAR MC MCO MD MDA ME MNE ' +
  'MF MAF MG MDG MH MHL MK MKD ML MLI MM MMR MN MNG MO MAC MP MNP MQ MTQ MR MRT MS MSR MT MLT MU MUS ' +
  'MV MDV MW MWI MX MEX MY MYS MZ MOZ NA NAM NC NCL NE NER NF NFK NG NGA NI NIC NL NLD NO NOR NP NPL ' +
  'NR NRU NU NIU NZ NZL OM OMN PA PAN PE PER PF PYF PG PNG PH PHL PK PAK PL POL PM SPM PN PCN PR PRI ' +
  'PS PSE PT PRT PW PLW PY PRY QA QAT RE REU RO ROU RS SRB RU RUS RW RWA SA SAU SB SLB SC SYC SD SDN ' +
  'SE SWE SG SGP SH SHN SI SVN SJ SJM SK SVK SL SLE SM SMR SN SEN SO SOM SR SUR SS SSD ST STP SV SLV ' +
  'SX SXM SY SYR SZ SWZ TC TCA TD TCD TF ATF TG TGO TH THA TJ TJK TK TKL TL TLS TM TKM TN TUN TO TON ' +
  'TR TUR TT TTO TV TUV TW TWN TZ TZA UA UKR UG UGA UM UMI US USA UY URY UZ UZB VA VAT VC VCT VE VEN ' +
  'VG VGB VI VIR VN VNM VU VUT WF WLF WS WSM XK XKX YE YEM YT MYT ZA ZAF ZM ZMB ZW ZWE';

/** alpha-2 → alpha-3, in alpha-2 order. */
export const COUNTRY_CODES: ReadonlyArray<readonly [alpha2: string, alpha3: string]> = (() => {
  const parts = CODE_PAIRS.split(' ');
  const pairs: [string, string][] = [];
  for (let i = 0; i < parts.length; i += 2) pairs.push([parts[i], parts[i + 1]]);
  return pairs;
})();

/** `CODE:Name;CODE:Name` per country (alpha-2 key). */
const SUBDIVISIONS: Record<string, string> = {
  US:
    'AL:Alabama;AK:Alaska;AZ:Arizona;AR:Arkansas;CA:California;CO:Colorado;CT:Connecticut;DE:Delaware;' +
    'DC:District of Columbia;FL:Florida;GA:Georgia;HI:Hawaii;ID:Idaho;IL:Illinois;IN:Indiana;IA:Iowa;' +
    'KS:Kansas;KY:Kentucky;LA:Louisiana;ME:Maine;MD:Maryland;MA:Massachusetts;MI:Michigan;MN:Minnesota;' +
    'MS:Mississippi;MO:Missouri;MT:Montana;NE:Nebraska;NV:Nevada;NH:New Hampshire;NJ:New Jersey;' +
    'NM:New Mexico;NY:New York;NC:North Carolina;ND:North Dakota;OH:Ohio;OK:Oklahoma;OR:Oregon;' +
    'PA:Pennsylvania;RI:Rhode Island;SC:South Carolina;SD:South Dakota;TN:Tennessee;TX:Texas;UT:Utah;' +
    'VT:Vermont;VA:Virginia;WA:Washington;WV:West Virginia;WI:Wisconsin;WY:Wyoming',
  CA:
    'AB:Alberta;BC:British Columbia;MB:Manitoba;NB:New Brunswick;NL:Newfoundland and Labrador;' +
    'NS:Nova Scotia;NT:Northwest Territories;NU:Nunavut;ON:Ontario;PE:Prince Edward Island;QC:Quebec;' +
    'SK:Saskatchewan;YT:Yukon',
  MX:
    'AGU:Aguascalientes;BCN:Baja California;BCS:Baja California Sur;CAM:Campeche;CHP:Chiapas;' +
    'CHH:Chihuahua;CMX:Ciudad de México;COA:Coahuila;COL:Colima;DUR:Durango;GUA:Guanajuato;' +
    'GRO:Guerrero;HID:Hidalgo;JAL:Jalisco;MEX:México;MIC:Michoacán;MOR:Morelos;NAY:Nayarit;' +
    'NLE:Nuevo León;OAX:Oaxaca;PUE:Puebla;QUE:Querétaro;ROO:Quintana Roo;SLP:San Luis Potosí;' +
    'SIN:Sinaloa;SON:Sonora;TAB:Tabasco;TAM:Tamaulipas;TLA:Tlaxcala;VER:Veracruz;YUC:Yucatán;ZAC:Zacatecas',
  CO:
    'AMA:Amazonas;ANT:Antioquia;ARA:Arauca;ATL:Atlántico;BOL:Bolívar;BOY:Boyacá;CAL:Caldas;' +
    'CAQ:Caquetá;CAS:Casanare;CAU:Cauca;CES:Cesar;CHO:Chocó;COR:Córdoba;CUN:Cundinamarca;' +
    'DC:Bogotá D.C.;GUA:Guainía;GUV:Guaviare;HUI:Huila;LAG:La Guajira;MAG:Magdalena;MET:Meta;' +
    'NAR:Nariño;NSA:Norte de Santander;PUT:Putumayo;QUI:Quindío;RIS:Risaralda;' +
    'SAP:San Andrés, Providencia y Santa Catalina;SAN:Santander;SUC:Sucre;TOL:Tolima;' +
    'VAC:Valle del Cauca;VAU:Vaupés;VID:Vichada',
};

/**
 * evidence §11 N37 [T3raw countries/06]: each row carries `postal_code_format`, a regex in Ruby's
 * anchors (`\\A\\d{4}\\Z`), or null (72 of the partner's 250 rows). Written here for the countries
 * our tests and demos use; the others are null, as for countries without postal codes.
 */
const POSTAL_CODE_FORMATS: Record<string, string> = {
  US: '\\A\\d{5}(?:[ \\-]\\d{4})?\\Z',
  CA: '\\A[A-Z]\\d[A-Z] ?\\d[A-Z]\\d\\Z',
  MX: '\\A\\d{5}\\Z',
  CO: '\\A\\d{6}\\Z',
  BR: '\\A\\d{5}-?\\d{3}\\Z',
  DE: '\\A\\d{5}\\Z',
  ES: '\\A\\d{5}\\Z',
  FR: '\\A\\d{5}\\Z',
};

export interface CountryEntry {
  alpha3: string;
  name: string;
  postal_code_format: string | null;
  subdivisions: { code: string; name: string }[];
}

let built: CountryEntry[] | undefined;

/** The list, built once per process, sorted by name as a person scans it. */
export function countryList(): CountryEntry[] {
  if (built) return built;
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  built = COUNTRY_CODES.map(([alpha2, alpha3]) => ({
    alpha3,
    name: names.of(alpha2) ?? alpha2,
    postal_code_format: POSTAL_CODE_FORMATS[alpha2] ?? null,
    subdivisions: (SUBDIVISIONS[alpha2] ?? '')
      .split(';')
      .filter(Boolean)
      .map((entry) => {
        const [code, name] = entry.split(':');
        return { code, name };
      }),
  })).sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return built;
}

/**
 * Colombian banks for GET /v1/banks?country_code=CO (evidence §8: the partner lists 28 there, rows
 * `{ code, name }`). A short list in the ACH Colombia numbering, enough for forms and tests.
 */
export const COLOMBIAN_BANKS: ReadonlyArray<{ code: string; name: string }> = [
  { code: '1001', name: 'Banco de Bogotá' },
  { code: '1002', name: 'Banco Popular' },
  { code: '1007', name: 'Bancolombia' },
  { code: '1009', name: 'Citibank Colombia' },
  { code: '1013', name: 'BBVA Colombia' },
  { code: '1019', name: 'Scotiabank Colpatria' },
  { code: '1023', name: 'Banco de Occidente' },
  { code: '1032', name: 'Banco Caja Social' },
  { code: '1040', name: 'Banco Agrario' },
  { code: '1051', name: 'Davivienda' },
  { code: '1052', name: 'Banco AV Villas' },
  { code: '1507', name: 'Nequi' },
];
