import { ApiProperty } from '@nestjs/swagger';

class PeriodCountsDto {
  @ApiProperty({ format: 'date', description: 'The day, or the Monday of the ISO week.' }) period: string;
  @ApiProperty() ok: number;
  @ApiProperty() warn: number;
  @ApiProperty() fail: number;
}

export class RecordStatisticsDto {
  @ApiProperty({ enum: ['day', 'week'] }) interval: string;
  @ApiProperty({ format: 'date' }) date_from: string;
  @ApiProperty({ format: 'date' }) date_to: string;
  @ApiProperty({
    type: [PeriodCountsDto],
    description: 'Every period of the range, oldest first, zeros included.',
  })
  results: PeriodCountsDto[];
}
