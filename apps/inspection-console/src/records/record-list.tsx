import { type ReactNode } from 'react';
import { type Theme, useMediaQuery } from '@mui/material';
import { CardLine, CardList, CardTitle, usePhone } from '../layout/card-list';
import {
  AutocompleteInput,
  Datagrid,
  DateField,
  DateInput,
  FunctionField,
  List,
  ReferenceField,
  ReferenceInput,
  SelectInput,
  TextField,
  TopToolbar,
  FilterButton,
  SortButton,
  NullableBooleanInput,
  useListContext,
  useTranslate,
} from 'react-admin';
import { type CheckRecord } from '../api/resources';
import { EmptyList } from '../layout/empty-list';
import { RecordStatusChips } from '../layout/status-chip';
import { PhotoThumbnail } from '../photos/photo-thumbnail';
import { RecordPhotoGallery } from '../photos/record-photo-gallery';
import { usePeople } from '../users/use-people';
import { ExportRecordsButton } from './export-records-button';

/**
 * The Inspector filter: the people's usernames (`/api/users/`, service accounts are not among them), so a supervisor
 * picks instead of typing the exact name the API filters on.
 */
function InspectorInput({ source }: { source: string }) {
  const { people, isPending } = usePeople();
  const choices = people.map((user) => ({ id: user.username, name: user.username }));
  return (
    <AutocompleteInput
      source={source}
      label="resources.records.fields.checked_by"
      choices={choices}
      isPending={isPending}
      sx={{ minWidth: 180 }}
    />
  );
}

/** The page's records with photos, stepped through by the lightbox (previous / next). */
function PageGallery({ children }: { children: ReactNode }) {
  const { data = [] } = useListContext<CheckRecord>();
  return <RecordPhotoGallery records={data}>{children}</RecordPhotoGallery>;
}

function useRecordFilters() {
  const translate = useTranslate();
  return [
    <ReferenceInput key="device" source="device" reference="devices" alwaysOn>
      <AutocompleteInput
        label="resources.records.fields.device"
        optionText={(device: { code: string; name: string }) => `${device.code} · ${device.name}`}
        filterToQuery={(q: string) => ({ q })}
        sx={{ minWidth: 220 }}
      />
    </ReferenceInput>,
    <SelectInput
      key="status"
      source="status"
      alwaysOn
      choices={(['ok', 'warn', 'fail'] as const).map((id) => ({
        id,
        name: translate(`console.status.${id}`),
      }))}
    />,
    <DateInput key="checked_after" source="checked_after" alwaysOn />,
    <DateInput key="checked_before" source="checked_before" alwaysOn />,
    <ReferenceInput key="plan" source="plan" reference="plans" perPage={100}>
      <SelectInput label="resources.records.fields.plan" optionText="name" />
    </ReferenceInput>,
    <ReferenceInput key="item" source="item" reference="items" perPage={500}>
      <SelectInput label="resources.records.fields.item" optionText="name" />
    </ReferenceInput>,
    <InspectorInput key="checked_by" source="checked_by" />,
    <NullableBooleanInput key="out_of_range" source="out_of_range" />,
  ];
}

/** A record as a card (phones): device — item and result, time and inspector, value and note, the photo beside. */
function RecordCards() {
  return (
    <CardList<CheckRecord>
      link="show"
      media={(record) => record.photo && <PhotoThumbnail record={record} size={56} />}
    >
      {(record) => (
        <>
          <CardTitle end={<RecordStatusChips status={record.status} outOfRange={record.out_of_range} />}>
            <ReferenceField source="device" reference="devices" link={false} />
            {record.item !== null && (
              <>
                {' — '}
                <ReferenceField source="item" reference="items" link={false} />
              </>
            )}
          </CardTitle>
          <CardLine>
            <DateField source="checked_at" showTime options={{ dateStyle: 'short', timeStyle: 'short' }} />
            {record.checked_by && ` · ${record.checked_by}`}
          </CardLine>
          {(record.value || record.note) && (
            <CardLine>{[record.value, record.note].filter(Boolean).join(' · ')}</CardLine>
          )}
        </>
      )}
    </CardList>
  );
}

/**
 * Check records, newest first, sortable by the columns the API orders by, filterable by every field it filters on;
 * cards on phones.
 */
export function RecordList() {
  // The plan column only where there is room for it (it stays a filter, and is in the CSV export).
  const wide = useMediaQuery<Theme>((theme) => theme.breakpoints.up('lg'));
  const phone = usePhone();
  return (
    <List
      filters={useRecordFilters()}
      perPage={25}
      sort={{ field: 'checked_at', order: 'DESC' }}
      empty={<EmptyList canCreate={false} />}
      actions={
        <TopToolbar>
          <FilterButton />
          {phone && <SortButton fields={['checked_at', 'device', 'status', 'checked_by']} />}
          <ExportRecordsButton />
        </TopToolbar>
      }
    >
      <PageGallery>
        {phone ? (
          <RecordCards />
        ) : (
          <Datagrid bulkActionButtons={false} rowClick="show">
            <DateField
              source="checked_at"
              showTime
              options={{ dateStyle: 'short', timeStyle: 'short' }}
              sx={{ whiteSpace: 'nowrap' }}
            />
            <ReferenceField source="device" reference="devices" link={false} sx={{ whiteSpace: 'nowrap' }} />
            <ReferenceField source="item" reference="items" link={false} emptyText="—" />
            <FunctionField<CheckRecord>
              source="status"
              render={(record) => (
                <RecordStatusChips status={record.status} outOfRange={record.out_of_range} />
              )}
            />
            <FunctionField<CheckRecord>
              source="photo"
              sortable={false}
              render={(record) => <PhotoThumbnail record={record} />}
            />
            <TextField source="value" sortable={false} />
            <TextField source="note" sortable={false} />
            <TextField source="checked_by" />
            {wide && <ReferenceField source="plan" reference="plans" link={false} emptyText="—" />}
          </Datagrid>
        )}
      </PageGallery>
    </List>
  );
}
