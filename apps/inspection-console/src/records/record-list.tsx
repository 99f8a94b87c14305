import { type Theme, useMediaQuery } from '@mui/material';
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
  TextInput,
  TopToolbar,
  FilterButton,
  useTranslate,
} from 'react-admin';
import { type CheckRecord } from '../api/resources';
import { EmptyList } from '../layout/empty-list';
import { StatusChip } from '../layout/status-chip';
import { PhotoThumbnail } from '../photos/photo-thumbnail';
import { ExportRecordsButton } from './export-records-button';

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
    <TextInput key="checked_by" source="checked_by" />,
  ];
}

/** Check records, newest last as the API orders them, filterable by every field the API filters on. */
export function RecordList() {
  // The plan column only where there is room for it (it stays a filter, and is in the CSV export).
  const wide = useMediaQuery<Theme>((theme) => theme.breakpoints.up('lg'));
  return (
    <List
      filters={useRecordFilters()}
      perPage={25}
      sort={{ field: 'id', order: 'ASC' }}
      empty={<EmptyList canCreate={false} />}
      actions={
        <TopToolbar>
          <FilterButton />
          <ExportRecordsButton />
        </TopToolbar>
      }
    >
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <DateField
          source="checked_at"
          showTime
          sortable={false}
          options={{ dateStyle: 'short', timeStyle: 'short' }}
          sx={{ whiteSpace: 'nowrap' }}
        />
        <ReferenceField
          source="device"
          reference="devices"
          sortable={false}
          link="edit"
          sx={{ whiteSpace: 'nowrap' }}
        />
        <ReferenceField source="item" reference="items" sortable={false} link={false} emptyText="—" />
        <FunctionField<CheckRecord>
          source="status"
          sortable={false}
          render={(record) => <StatusChip status={record.status} />}
        />
        <FunctionField<CheckRecord>
          source="photo"
          sortable={false}
          render={(record) => <PhotoThumbnail recordId={record.id} url={record.photo} />}
        />
        <TextField source="value" sortable={false} />
        <TextField source="note" sortable={false} />
        <TextField source="checked_by" sortable={false} />
        {wide && (
          <ReferenceField source="plan" reference="plans" sortable={false} link="edit" emptyText="—" />
        )}
      </Datagrid>
    </List>
  );
}
