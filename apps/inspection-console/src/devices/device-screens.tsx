import AddIcon from '@mui/icons-material/AddCircleOutline';
import QrCodeIcon from '@mui/icons-material/QrCode2';
import { Box, Button } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import {
  ArrayInput,
  Create,
  CreateButton,
  Datagrid,
  DeleteWithConfirmButton,
  Edit,
  EditButton,
  ExportButton,
  FormDataConsumer,
  FunctionField,
  NumberInput,
  SaveButton,
  SearchInput,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextField,
  TextInput,
  Toolbar,
  TopToolbar,
  maxLength,
  required,
  useDataProvider,
  useListContext,
  useRecordContext,
  useRedirect,
  useSimpleFormIterator,
  useTranslate,
} from 'react-admin';
import { type ConsoleDataProvider } from '../api/data-provider';
import { type Device, type ItemType } from '../api/resources';
import { RecordAuditHistory } from '../audit/audit-history';
import { labelSheetPath } from '../labels/label-sheet';
import { CardLine, CardList, CardTitle } from '../layout/card-list';
import { ResponsiveList } from '../layout/responsive-list';
import { DownloadReportButton } from '../reports/download-report-button';

/** The group filter's choices: every device group (`GET /api/devices/groups/`). */
function GroupFilter({ source, alwaysOn }: { source: string; alwaysOn?: boolean }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data = [] } = useQuery({
    queryKey: ['devices', 'groups'],
    queryFn: () => dataProvider.deviceGroups(),
  });
  const choices = useMemo(() => data.map((group) => ({ id: group, name: group })), [data]);
  return (
    <SelectInput
      source={source}
      alwaysOn={alwaysOn}
      choices={choices}
      emptyText={translate('console.devices.all_groups')}
      sx={{ minWidth: 180 }}
    />
  );
}

const deviceFilters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <GroupFilter key="group" source="group" alwaysOn />,
];

function DeleteDeviceButton() {
  const device = useRecordContext<Device>();
  const translate = useTranslate();
  if (!device) return null;
  return (
    <DeleteWithConfirmButton
      mutationMode="pessimistic"
      confirmTitle={translate('console.devices.delete_title', { code: device.code })}
      confirmContent={translate('console.devices.delete_content', {
        name: device.name,
        code: device.code,
        items: device.check_items?.length ?? 0,
      })}
    />
  );
}

/**
 * QR labels of the devices the list shows (narrowed by the search and group filters): a printable sheet
 * (`#/labels?ids=`). The list's row checkboxes are not used: react-admin's fail axe-core's label rules.
 */
function PrintLabelsButton() {
  const { data = [] } = useListContext<Device>();
  const translate = useTranslate();
  const redirect = useRedirect();
  return (
    <Button
      size="small"
      startIcon={<QrCodeIcon />}
      onClick={() => redirect(labelSheetPath(data.map((device) => device.id)))}
      disabled={data.length === 0}
    >
      {translate('console.labels.print_selected')}
    </Button>
  );
}

/** One device's QR label, from its page. */
function DeviceLabelButton() {
  const device = useRecordContext<Device>();
  const translate = useTranslate();
  const redirect = useRedirect();
  if (!device) return null;
  return (
    <Button size="small" startIcon={<QrCodeIcon />} onClick={() => redirect(labelSheetPath([device.id]))}>
      {translate('console.labels.label')}
    </Button>
  );
}

/** A device as a card (phones): code · name, group and location, its check items. */
function DeviceCards() {
  const translate = useTranslate();
  return (
    <CardList<Device> link="edit">
      {(device) => (
        <>
          <CardTitle>{`${device.code} · ${device.name}`}</CardTitle>
          {(device.group || device.location) && (
            <CardLine>{[device.group, device.location].filter(Boolean).join(' · ')}</CardLine>
          )}
          <CardLine>
            {translate('console.devices.items_count', { smart_count: device.check_items.length })}
          </CardLine>
        </>
      )}
    </CardList>
  );
}

export function DeviceList() {
  const translate = useTranslate();
  return (
    <ResponsiveList
      filters={deviceFilters}
      perPage={20}
      cards={<DeviceCards />}
      actions={
        <TopToolbar>
          <CreateButton />
          <ExportButton />
          <PrintLabelsButton />
        </TopToolbar>
      }
    >
      <Datagrid bulkActionButtons={false} rowClick="edit">
        <TextField source="code" sortable={false} />
        <TextField source="name" sortable={false} />
        <TextField source="group" sortable={false} />
        <TextField source="location" sortable={false} />
        <FunctionField<Device>
          label="resources.devices.fields.check_items"
          sortable={false}
          render={(device) =>
            translate('console.devices.items_count', { smart_count: device.check_items.length })
          }
        />
        <EditButton />
      </Datagrid>
    </ResponsiveList>
  );
}

/** The check-item list's add button, with its words (react-admin's default is a bare + icon). */
function AddCheckItemButton() {
  const { add } = useSimpleFormIterator();
  const translate = useTranslate();
  return (
    <Button size="small" startIcon={<AddIcon />} onClick={() => add()}>
      {translate('console.devices.add_item')}
    </Button>
  );
}

const ITEM_TYPES: ItemType[] = ['text', 'number', 'yes_no', 'choice'];

/** Two columns of inputs from tablet width up, one on narrow screens. */
export const formGrid = {
  display: 'grid',
  gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
  columnGap: 2,
  width: '100%',
  maxWidth: 960,
} as const;

function DeviceForm() {
  const translate = useTranslate();
  return (
    <SimpleForm
      toolbar={
        <Toolbar sx={{ justifyContent: 'space-between' }}>
          <SaveButton />
          <DeleteDeviceButton />
        </Toolbar>
      }
    >
      <Box sx={formGrid}>
        <TextInput source="code" validate={[required(), maxLength(100)]} />
        <TextInput source="name" validate={[required(), maxLength(200)]} />
        <TextInput source="location" validate={maxLength(200)} />
        <TextInput source="group" validate={maxLength(100)} />
      </Box>
      <ArrayInput
        source="check_items"
        helperText={translate('console.devices.items_help')}
        sx={{ maxWidth: 960 }}
      >
        <SimpleFormIterator inline disableReordering disableClear addButton={<AddCheckItemButton />}>
          <TextInput
            source="name"
            label="resources.devices.fields.check_items.name"
            validate={[required(), maxLength(200)]}
          />
          <TextInput
            source="expected_value"
            label="resources.devices.fields.check_items.expected_value"
            validate={maxLength(200)}
          />
          <TextInput source="description" label="resources.devices.fields.check_items.description" />
          <SelectInput
            source="type"
            label="resources.devices.fields.check_items.type"
            choices={ITEM_TYPES.map((id) => ({ id, name: translate(`console.item_type.${id}`) }))}
            defaultValue="text"
            validate={required()}
          />
          <FormDataConsumer<{ type?: ItemType }>>
            {({ scopedFormData }) =>
              scopedFormData?.type === 'number' ? (
                <>
                  <NumberInput source="min" label="resources.devices.fields.check_items.min" />
                  <NumberInput source="max" label="resources.devices.fields.check_items.max" />
                  <TextInput
                    source="unit"
                    label="resources.devices.fields.check_items.unit"
                    validate={maxLength(20)}
                  />
                </>
              ) : scopedFormData?.type === 'choice' ? (
                <TextInput
                  source="options"
                  label="resources.devices.fields.check_items.options"
                  helperText={translate('console.devices.options_help')}
                  multiline
                  minRows={2}
                  format={(options?: string[] | null) => (options ?? []).join('\n')}
                  parse={(text: string) => text.split('\n')}
                  validate={required()}
                />
              ) : null
            }
          </FormDataConsumer>
        </SimpleFormIterator>
      </ArrayInput>
    </SimpleForm>
  );
}

export function DeviceCreate() {
  return (
    <Create redirect="list">
      <DeviceForm />
    </Create>
  );
}

export function DeviceEdit() {
  return (
    <Edit
      mutationMode="pessimistic"
      redirect="list"
      actions={
        <TopToolbar>
          <DownloadReportButton kind="devices" />
          <DeviceLabelButton />
        </TopToolbar>
      }
    >
      <DeviceForm />
      <RecordAuditHistory resource="device" />
    </Edit>
  );
}
