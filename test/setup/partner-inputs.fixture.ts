/** Request bodies the e2e suites send to the partner (or the sandbox) again and again. */
import type {
  CreatePartnerBusinessUserInput,
  CreatePartnerIndividualUserInput,
} from '@partner-payments/nestjs/models';

/**
 * An individual with everything the `usa-virtual-accounts` product asks (evidence §3: flat names,
 * alpha-3 countries), so verification starts at once (CREATED → VERIFYING → REVIEW). It stops in
 * REVIEW like at the partner: verify it with `control.setUserVerificationOutcome(id, 'approved')`.
 */
export const individual = (
  extra: Partial<CreatePartnerIndividualUserInput> & Record<string, unknown> = {},
): CreatePartnerIndividualUserInput => ({
  type: 'individual',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '+15555550100',
  birth_date: '1990-12-10',
  nationality: 'USA',
  address_street: '1 Main St',
  address_city: 'Austin',
  address_state: 'TX',
  address_zip_code: '78701',
  address_country: 'USA',
  ssn: '123456789',
  source_of_funds: 'salary',
  account_purpose: 'personal_or_living_expenses',
  occupation: 'engineer',
  ...extra,
});

/** A small valid PDF as a data URI (documents travel base64 inside the user body [T1s §3.8]). */
export const PDF_DATA_URI = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64')}`;

/** A US business with what `usa-virtual-accounts` asks, one owner included. */
export const business = (
  extra: Partial<CreatePartnerBusinessUserInput> & Record<string, unknown> = {},
): CreatePartnerBusinessUserInput => ({
  type: 'business',
  business_legal_name: 'Acme LLC',
  email: 'ops@acme.example',
  business_type: 'llc',
  business_industry: ['software_publishers'],
  formation_date: '2015-03-01',
  formation_country: 'USA',
  ein: '123456789',
  address_street: '500 Market St',
  address_city: 'San Francisco',
  address_state: 'CA',
  address_zip_code: '94105',
  address_country: 'USA',
  source_of_funds: 'business_income',
  account_purpose: 'operating_business_payments',
  identifying_information: [{ type: 'business_formation', documents: [{ file: PDF_DATA_URI }] }],
  associated_persons: [associatedPerson()],
  ...extra,
});

/** A structured US address (recipients take alpha-2 countries, evidence §4). */
export const usAddress = () => ({
  street_name: '1 Main St',
  city: 'Austin',
  state: 'TX',
  postal_code: '78701',
  country: 'US',
});

/** A WIRE recipient account (evidence §4: account_number, routing_number, bank_name, bank_address object). */
export const wireAccount = (accountNumber = '123456789') => ({
  account_type: 'WIRE' as const,
  routing_number: '021000021',
  account_number: accountNumber,
  type: 'checking',
  bank_name: 'Sandbox Bank',
  bank_address: {
    street_name: '270 Park Ave',
    city: 'New York',
    state: 'NY',
    postal_code: '10017',
    country: 'US',
  },
});

/** A WIRE recipient body: beside the account, WIRE needs a top-level address object and an email (evidence §4). */
export const wireRecipient = (userId: string, extra: Record<string, unknown> = {}) => ({
  user_id: userId,
  type: 'individual' as const,
  first_name: 'Bob',
  last_name: 'Payee',
  email: 'bob@payee.example',
  address: usAddress(),
  account: wireAccount(),
  ...extra,
});

/** A business's associated person (a beneficial owner's flat fields, evidence §3). */
export const associatedPerson = (extra: Record<string, unknown> = {}) => ({
  email: 'owner@acme.example',
  first_name: 'Owner',
  last_name: 'One',
  birth_date: '1980-01-01',
  nationality: 'USA',
  ...extra,
});
